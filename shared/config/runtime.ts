import { defineDomain, oneOf } from "./setting";

/** Which kind of deployment this is, and how much it logs. */
export const runtime = defineDomain(
  "Runtime and logging",
  {
    NODE_ENV: oneOf(
      ["development", "test", "production"] as const,
      "development",
      "`development`, `test` or `production`; production refuses the development secrets",
    ),
    LOG_LEVEL: oneOf(
      ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const,
      "info",
      "pino level (`silent` to mute)",
    ),
    LOG_FORMAT: oneOf(
      ["auto", "json", "pretty"] as const,
      "auto",
      "`json` lines, or `pretty` ones (pino-pretty, a development dependency); `auto` is pretty on a terminal. Production always writes JSON",
    ),
  },
  (env) => ({ env: env("NODE_ENV"), logLevel: env("LOG_LEVEL"), logFormat: env("LOG_FORMAT") }),
);
