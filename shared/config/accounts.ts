import Joi from "joi";
import { count, defineDomain, num, type Setting } from "./setting";

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

/** Apiary's own accounts: who may sign up, how long a session lasts, how fast sign-in may be tried. */
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
  },
  (env) => ({
    accounts: {
      signUpMode: env("SIGN_UP_MODE"),
      inviteTtlHours: env("INVITE_TTL_HOURS"),
      attemptsPerEmail: env("SIGN_IN_ATTEMPTS_PER_EMAIL"),
      attemptsPerAddress: env("SIGN_IN_ATTEMPTS_PER_ADDRESS"),
    },
  }),
);

/** The accounts' settings as the pages take them (tests make their own: another sign-up mode, a small limit). */
export type AccountSettings = ReturnType<typeof accounts.load>["accounts"];
