import { serveUntilSignal } from "../serve-until-signal";
import { DEFAULT_PORT, startLocalnet } from "./server";

/**
 * CLI: `tsx scripts/solana-localnet/main.ts [--host 127.0.0.1] [--port 8899] [--slot-ms 400]`.
 * JSON-RPC on the port, websocket on the port + 1; stops cleanly on SIGINT / SIGTERM.
 */

const USAGE = "usage: tsx scripts/solana-localnet/main.ts [--host 127.0.0.1] [--port 8899] [--slot-ms 400]";

/** Reads `--host` / `--port` / `--slot-ms` (also in `--flag=value` form); exits with usage on anything else. */
export function parseArgs(argv: string[]): { host: string; port: number; slotMs: number } {
  const options = { host: "127.0.0.1", port: DEFAULT_PORT, slotMs: 400 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    const number = value !== undefined && /^\d+$/.test(value) ? Number(value) : NaN;
    if (flag === "--host" && value) options.host = value;
    else if (flag === "--port" && number >= 0 && number < 65535) options.port = number;
    else if (flag === "--slot-ms" && number >= 0) options.slotMs = number;
    else {
      const help = flag === "--help" || flag === "-h";
      console.error(help ? USAGE : `invalid argument: ${argv[i]}\n${USAGE}`);
      process.exit(help ? 0 : 2);
    }
  }
  return options;
}

if (require.main === module) {
  serveUntilSignal(
    "Solana localnet",
    () => startLocalnet(parseArgs(process.argv.slice(2))),
    (net) => `Solana localnet: JSON-RPC ${net.rpcUrl}, websocket ${net.wsUrl}`,
  );
}
