import Joi from "joi";
import { count, defineDomain, num, oneOf, optionalStr, str, type Setting } from "./setting";

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

/** An OpenID Connect client setting: needed once `OIDC_ISSUER` is set, so a half-made configuration refuses to start. */
const requiredWithIssuer = Joi.string().when("OIDC_ISSUER", {
  is: Joi.string().min(1).required(),
  then: Joi.string().min(1).required().messages({ "any.required": "{{#label}} is required when OIDC_ISSUER is set" }),
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
      "password sign-ins one email may be tried with from one client address in 15 minutes, right or wrong (from all addresses together, ten times it); then 429 until the window ends",
    ),
    SIGN_IN_ATTEMPTS_PER_ADDRESS: num(
      count.default(50),
      "password sign-ins and sign-ups one client address may try in 15 minutes; then 429 until the window ends",
    ),
    OIDC_ISSUER: optionalStr(
      Joi.string()
        .uri({ scheme: ["http", "https"] })
        .allow(""),
      "your OpenID Connect provider's issuer (its discovery document is `<issuer>/.well-known/openid-configuration`); unset: no sign-in through it",
    ),
    OIDC_CLIENT_ID: optionalStr(requiredWithIssuer, "the client id Apiary is registered with at the provider"),
    OIDC_CLIENT_SECRET: optionalStr(
      Joi.string().allow(""),
      "the client's secret (a secret: never logged or shown), sent to the token endpoint with HTTP Basic (or in the form when the provider takes only that); unset: a public client, PKCE alone",
    ),
    OIDC_SCOPES: str(Joi.string().default("openid email profile"), "scopes asked for (`openid` is always added)"),
    OIDC_BUTTON_LABEL: str(
      Joi.string().max(60).default("your company account"),
      "what the sign-in link names: “Sign in with …”",
    ),
    OIDC_SIGN_UP: oneOf(
      ["true", "false"],
      "true",
      "`true`: a first sign-in through the provider makes an account (the provider is the gate, whatever `SIGN_UP_MODE` says); `false`: only people with an account already",
    ),
  },
  (env) => ({
    accounts: {
      signUpMode: env("SIGN_UP_MODE"),
      inviteTtlHours: env("INVITE_TTL_HOURS"),
      attemptsPerEmail: env("SIGN_IN_ATTEMPTS_PER_EMAIL"),
      attemptsPerAddress: env("SIGN_IN_ATTEMPTS_PER_ADDRESS"),
      /** Sign-in through the company's OpenID Connect provider when `OIDC_ISSUER` is set; null otherwise. */
      oidc: env("OIDC_ISSUER")
        ? ({
            issuer: env("OIDC_ISSUER")!,
            clientId: env("OIDC_CLIENT_ID")!,
            clientSecret: env("OIDC_CLIENT_SECRET") || undefined,
            scopes: [...new Set(["openid", ...env("OIDC_SCOPES").split(/\s+/).filter(Boolean)])].join(" "),
            buttonLabel: env("OIDC_BUTTON_LABEL"),
            signUp: env("OIDC_SIGN_UP") === "true",
          } satisfies OidcSettings)
        : null,
    },
  }),
);

/** How Apiary signs people in through an OpenID Connect provider. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Unset for a public client (PKCE alone). Never logged or shown. */
  clientSecret: string | undefined;
  /** Space-separated, `openid` always among them. */
  scopes: string;
  buttonLabel: string;
  /** Whether a first sign-in of someone without an account makes one. */
  signUp: boolean;
  /** The redirect URL registered at the provider; `PLATFORM_URL` + `/platform/sign-in/oidc/callback` unless given. */
  redirectUri?: string;
}

/** The accounts' settings as the pages take them (tests make their own: another sign-up mode, a small limit). */
export type AccountSettings = ReturnType<typeof accounts.load>["accounts"];
