import Joi from "joi";
import { defineDomain, str } from "./setting";

/**
 * Production must set the variable: the development default is in every checkout, so it is no
 * secret there. Elsewhere the development rule and its default apply.
 */
const requiredInProduction = (production: Joi.StringSchema, development: Joi.StringSchema) =>
  Joi.string().when("NODE_ENV", { is: "production", then: production.required(), otherwise: development });

/** The operator's credentials and the root key of everything the service seals. */
export const secrets = defineDomain(
  "Operator credentials and secrets",
  {
    ADMIN_USER: str(Joi.string().default("admin"), "Bull Board user"),
    ADMIN_PASSWORD: str(
      requiredInProduction(Joi.string().min(8), Joi.string().min(8).default("apiary-dev-admin")),
      "Bull Board password",
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
    admin: { user: env("ADMIN_USER"), password: env("ADMIN_PASSWORD") },
    /** Encrypts secrets stored with runs (MCP tokens, credential-like llm_args); never logged. */
    secretsKey: env("SECRETS_KEY"),
  }),
);
