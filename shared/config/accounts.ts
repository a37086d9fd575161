import Joi from "joi";
import { count, defineDomain, num, optionalStr, str, type Setting } from "./setting";

/** Who may make an account on the pages: anyone, holders of an invite link, or nobody (the operator's CLI only). */
const SIGN_UP_MODES = ["open", "invite", "closed"] as const;
type SignUpMode = (typeof SIGN_UP_MODES)[number];

function isSignUpMode(value: unknown): value is SignUpMode {
  return SIGN_UP_MODES.some((mode) => mode === value);
}

/** `SIGN_UP_MODE`: open in development (`npm start`), invite-only in production unless the operator says otherwise. */
const signUpMode: Setting<SignUpMode> = {
  schema: Joi.string()
    .valid(...SIGN_UP_MODES)
    .when("NODE_ENV", {
      is: "production",
      then: Joi.string().default("invite"),
      otherwise: Joi.string().default("open"),
    }),
  describe:
    "who may make an account on the pages: `open` (anyone), `invite` (an invite link from an admin or `npm run accounts -- invite`) or `closed` (the CLI only)",
  read: (value, name) => {
    if (isSignUpMode(value)) return value;
    throw new Error(`Setting ${name}: its rule let through ${typeof value}, not ${SIGN_UP_MODES.join(" | ")}`);
  },
};

/** The OpenID Connect settings come as a set: any one of issuer, client id and secret needs the others. */
const oidcPart = Joi.string().when("OIDC_ISSUER_URL", {
  is: Joi.string().min(1).required(),
  then: Joi.string()
    .min(1)
    .required()
    .messages({ "any.required": "{{#label}} is required when OIDC_ISSUER_URL is set" }),
  otherwise: Joi.string().allow(""),
});

/** Apiary's own accounts: who may sign up, how long a session lasts, how fast sign-in may be tried, OpenID Connect. */
export const accounts = defineDomain(
  "Accounts",
  {
    SIGN_UP_MODE: signUpMode,
    INVITE_TTL_HOURS: num(count.default(168), "how long an invite link stays usable (it is good for one account)"),
    SIGN_IN_ATTEMPTS_PER_EMAIL: num(
      count.default(10),
      "password sign-ins one email may be tried with in 15 minutes, right or wrong; then 429 until the window ends",
    ),
    SIGN_IN_ATTEMPTS_PER_ADDRESS: num(
      count.default(50),
      "password sign-ins and sign-ups one client address may try in 15 minutes; then 429 until the window ends",
    ),
    OIDC_ISSUER_URL: optionalStr(
      Joi.string()
        .uri({ scheme: ["http", "https"] })
        .allow(""),
      "your OpenID Connect provider's issuer URL (its discovery document is `<issuer>/.well-known/openid-configuration`); empty: no single sign-on",
    ),
    OIDC_CLIENT_ID: optionalStr(oidcPart, "the client id Apiary is registered with at the provider"),
    OIDC_CLIENT_SECRET: optionalStr(
      oidcPart,
      "the client's secret (a secret: never logged or shown); sent to the token endpoint with HTTP Basic",
    ),
    OIDC_SCOPES: str(Joi.string().default("openid email profile"), "scopes asked for (`openid` is always added)"),
    OIDC_BUTTON_LABEL: str(
      Joi.string().max(60).default("your company account"),
      "what the sign-in button names: “Sign in with …”",
    ),
  },
  (env) => ({
    accounts: {
      signUpMode: env("SIGN_UP_MODE"),
      inviteTtlHours: env("INVITE_TTL_HOURS"),
      attemptsPerEmail: env("SIGN_IN_ATTEMPTS_PER_EMAIL"),
      attemptsPerAddress: env("SIGN_IN_ATTEMPTS_PER_ADDRESS"),
      /** Set when single sign-on is configured; null otherwise. */
      oidc: env("OIDC_ISSUER_URL")
        ? {
            issuer: env("OIDC_ISSUER_URL")!,
            clientId: env("OIDC_CLIENT_ID")!,
            clientSecret: env("OIDC_CLIENT_SECRET")!,
            scopes: [...new Set(["openid", ...env("OIDC_SCOPES").split(/\s+/).filter(Boolean)])].join(" "),
            buttonLabel: env("OIDC_BUTTON_LABEL"),
          }
        : null,
    },
  }),
);

/** The accounts' settings as the pages take them (tests make their own: another sign-up mode, a small limit). */
export type AccountSettings = ReturnType<typeof accounts.load>["accounts"];
