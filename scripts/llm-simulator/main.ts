import { serveUntilSignal } from "../serve-until-signal";
import type { KeyRateLimit } from "./rate-limits";
import { createSimulator, DEFAULT_PORT } from "./server";

/**
 * CLI: `tsx scripts/llm-simulator/main.ts [--host 127.0.0.1] [--port 8090] [--rpm N] [--tpm N] [--any-model]`
 * (`--rpm` / `--tpm`: requests / tokens per minute every API key may use; none when unset;
 * `--any-model`: answer every model name, as a gateway does, instead of 404 for an unknown one).
 * Prints one line with the base URL and shuts down cleanly on SIGINT / SIGTERM.
 */

const USAGE =
  "usage: tsx scripts/llm-simulator/main.ts [--host 127.0.0.1] [--port 8090] [--rpm N] [--tpm N] [--any-model]";

type CliOptions = { host: string; port: number; rateLimit?: KeyRateLimit; anyModel?: boolean };

/** Reads `--host` / `--port` / `--rpm` / `--tpm` (also in `--flag=value` form) and `--any-model`; exits with usage on anything else. */
export function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { host: "127.0.0.1", port: DEFAULT_PORT };
  const positive = (value: string | undefined) => Boolean(value && /^[1-9]\d{0,9}$/.test(value));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--any-model") {
      options.anyModel = true;
      continue;
    }
    const [flag, inline] = arg.split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (flag === "--host" && value) options.host = value;
    else if (flag === "--port" && value && /^\d+$/.test(value) && Number(value) <= 65535) options.port = Number(value);
    else if (flag === "--rpm" && positive(value)) options.rateLimit = { ...options.rateLimit, requests: Number(value) };
    else if (flag === "--tpm" && positive(value)) options.rateLimit = { ...options.rateLimit, tokens: Number(value) };
    else {
      console.error(flag === "--help" || flag === "-h" ? USAGE : `invalid argument: ${arg}\n${USAGE}`);
      process.exit(flag === "--help" || flag === "-h" ? 0 : 2);
    }
  }
  return options;
}

if (require.main === module) {
  serveUntilSignal(
    "LLM simulator",
    () => createSimulator(parseArgs(process.argv.slice(2))),
    (sim) => `LLM simulator listening on ${sim.url}`,
  );
}
