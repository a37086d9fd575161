import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Joi from "joi";
import { domains } from "../shared/config";

/**
 * `npm run env-example` writes `.env.example` from the declarations in shared/config/: every
 * variable with its description, commented out at its default, except those production cannot
 * start without, which are left for the operator to fill in. test/unit/env-example.test.ts fails
 * while the file and the declarations disagree.
 */

const HEADER = `# Apiary's environment for docker-compose.yml: \`cp .env.example .env\`, fill in the empty values,
# \`docker compose up\`. Generated from shared/config/ by \`npm run env-example\` (do not edit by hand);
# docs/configuration.md explains every variable. Compose runs the app with NODE_ENV=production,
# which refuses to start while a value left empty here is missing. The other lines are commented
# out at the app's defaults; Compose sets HOST, DATABASE_URL and REDIS_URL to its own services
# unless set here.
#
# The opt-in \`dev\` profile (\`docker compose --profile dev up\`) adds the LLM simulator and the
# Solana localnet. Point the app at them by setting, below:
#   LLM_BASE_URL=http://llm-simulator:8090/v1
#   LLM_API_KEY=simulator
#   LLM_SIMULATOR=true
#   SOLANA_RPC_URL=http://solana-localnet:8899
#   SOLANA_WS_URL=ws://solana-localnet:8900`;

/** Variables docker-compose.yml itself reads (not the app); the app's come from shared/config/. */
export const COMPOSE_VARIABLES: Record<string, string> = {
  POSTGRES_PASSWORD: "password of the Compose `postgres` service; the app's DATABASE_URL is built from it",
};

/** The variables production refuses to start without: the rules' verdict on an empty production environment. */
function requiredInProduction(): Set<string> {
  const schema = Joi.object(
    Object.fromEntries(
      Object.values(domains).flatMap((d) => Object.entries(d.settings).map(([name, s]) => [name, s.schema])),
    ),
  );
  const { error } = schema.validate({ NODE_ENV: "production" }, { abortEarly: false });
  return new Set((error?.details ?? []).filter((d) => d.type === "any.required").map((d) => String(d.path[0])));
}

function defaultOf(schema: Joi.Schema): string {
  const flags: { default?: unknown } = schema.describe().flags ?? {};
  const fallback = flags.default;
  return typeof fallback === "string" || typeof fallback === "number" ? String(fallback) : "";
}

/** The text of `.env.example`. */
export function envExample(): string {
  const required = requiredInProduction();
  const sections = [
    [
      "# ── Docker Compose ──",
      ...Object.entries(COMPOSE_VARIABLES).flatMap(([name, description]) => [`# ${description}`, `${name}=`]),
    ],
    ...Object.values(domains).map((domain) => [
      `# ── ${domain.title} ──`,
      ...Object.entries(domain.settings).flatMap(([name, setting]) =>
        required.has(name)
          ? [`# ${setting.describe} (required in production)`, `${name}=`]
          : [`# ${setting.describe}`, `# ${name}=${defaultOf(setting.schema)}`],
      ),
    ]),
  ];
  return [HEADER, ...sections.map((lines) => lines.join("\n"))].join("\n\n") + "\n";
}

if (require.main === module) writeFileSync(join(__dirname, "..", ".env.example"), envExample());
