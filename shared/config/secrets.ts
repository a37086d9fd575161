import Joi from "joi";
import { defineDomain, optionalStr, str } from "./setting";

/**
 * Production must set the variable: the development default is in every checkout, so it is no
 * secret there. Elsewhere the development rule and its default apply.
 */
const requiredInProduction = (production: Joi.StringSchema, development: Joi.StringSchema) =>
  Joi.string().when("NODE_ENV", { is: "production", then: production.required(), otherwise: development });

/**
 * The Bull Board password this repository once gave every checkout: public, so never accepted, in
 * any environment (an old .env or a copied example would otherwise open the board to anyone).
 */
const FORMER_DEFAULT_PASSWORD = "apiary-dev-admin";

/** The operator's credentials and the root key of everything the service seals. */
export const secrets = defineDomain(
  "Operator credentials and secrets",
  {
    ADMIN_USER: str(Joi.string().default("admin"), "Bull Board user"),
    ADMIN_PASSWORD: optionalStr(
      requiredInProduction(
        Joi.string().min(8).invalid(FORMER_DEFAULT_PASSWORD),
        Joi.string().min(8).invalid(FORMER_DEFAULT_PASSWORD),
      ),
      "Bull Board password (8+ characters); unset: the board is closed (403). `npm start` makes one into the git-ignored `.data/admin-password` when none is set",
    ),
    BULL_BOARD_WRITES: optionalStr(
      Joi.string().valid("true", "false"),
      "`true` lets Bull Board's actions (retry, clean, promote, pause…) through; `false` or unset: the board is read-only (`npm start` makes unset `true`)",
    ),
    SECRETS_KEY: str(
      requiredInProduction(
        Joi.string().min(32),
        Joi.string().min(16).default("apiary-development-secrets-key-not-for-production"),
      ),
      "the root of every sealing key (one per purpose, derived with HKDF): run secrets, launch keys, the new-key cookie; 32 characters or more in production",
    ),
  },
  (env) => ({
    admin: {
      user: env("ADMIN_USER"),
      /** Unset: Bull Board is closed. */
      password: env("ADMIN_PASSWORD"),
      /** Whether Bull Board's write actions are let through (else it is read-only). */
      writes: env("BULL_BOARD_WRITES") === "true",
      /** Whether the operator chose (`npm start` turns writes on only when they did not). */
      writesChosen: env("BULL_BOARD_WRITES") !== undefined,
    },
    /** Encrypts secrets stored with runs (MCP tokens, credential-like llm_args); never logged. */
    secretsKey: env("SECRETS_KEY"),
  }),
);
