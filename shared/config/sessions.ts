import Joi from "joi";
import { defineDomain, num, optionalStr } from "./setting";

/** HS256 wants a key at least as long as its 32-byte hash; a shorter one can be guessed offline from any token. */
const MIN_SESSION_SECRET_BYTES = 32;

const sessionSecret = Joi.string()
  .allow("")
  .custom((value: string, helpers) =>
    Buffer.byteLength(value, "utf8") >= MIN_SESSION_SECRET_BYTES
      ? value
      : helpers.message({
          custom: `{{#label}} must be at least ${MIN_SESSION_SECRET_BYTES} bytes (e.g. \`openssl rand -base64 48\`)`,
        }),
  );

/**
 * `SESSION_JWT_ISSUER` / `SESSION_JWT_AUDIENCE`: required in production whenever session tokens are
 * accepted, so a token the identity backend minted for another service cannot sign anyone in here.
 */
const sessionClaim = (() => {
  const required = Joi.string().required().messages({
    "any.required":
      "{{#label}} is required in production when session tokens are accepted (SESSION_JWT_SECRET or SESSION_JWKS_URL is set)",
  });
  const optional = Joi.string().allow("");
  return Joi.string().when("NODE_ENV", {
    is: "production",
    then: Joi.string().when("SESSION_JWT_SECRET", {
      is: Joi.string().min(1).required(),
      then: required,
      otherwise: Joi.string().when("SESSION_JWKS_URL", { is: Joi.exist(), then: required, otherwise: optional }),
    }),
    otherwise: optional,
  });
})();

/** How the platform verifies the identity backend's session tokens, and where users sign in. */
export const sessions = defineDomain(
  "Platform sessions",
  {
    SESSION_JWT_SECRET: optionalStr(
      sessionSecret,
      "HS256 secret (at least 32 bytes) verifying the identity backend's session tokens; with neither it nor `SESSION_JWKS_URL`, the platform accepts API keys only",
    ),
    SESSION_JWKS_URL: optionalStr(Joi.string().uri(), "JWKS URL verifying the identity backend's session tokens"),
    SESSION_JWT_ISSUER: optionalStr(sessionClaim, "required `iss` of session tokens"),
    SESSION_JWT_AUDIENCE: optionalStr(sessionClaim, "required `aud` of session tokens"),
    SESSION_MAX_AGE_SECONDS: num(
      Joi.number().integer().min(60).default(86_400),
      "how long an Apiary session lasts after sign-in; and the oldest `iat`, and longest `exp` after it, a session token may have",
    ),
    SESSION_SIGN_IN_URL: optionalStr(
      Joi.string().uri({ scheme: ["http", "https"] }),
      "the identity backend's sign-in page, linked from the platform's sign-in page",
    ),
  },
  (env) => ({
    session: {
      jwtSecret: env("SESSION_JWT_SECRET") || "",
      jwksUrl: env("SESSION_JWKS_URL") ?? "",
      issuer: env("SESSION_JWT_ISSUER") || "",
      audience: env("SESSION_JWT_AUDIENCE") || "",
      /** The longest a session token may live (`exp - iat`) and the oldest `iat` accepted. */
      maxAgeSeconds: env("SESSION_MAX_AGE_SECONDS"),
    },
    /** The identity backend's sign-in page, linked from the platform's sign-in page when set. */
    signInUrl: env("SESSION_SIGN_IN_URL") ?? "",
  }),
);
