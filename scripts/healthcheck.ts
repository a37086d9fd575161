import { config } from "../shared/config";

/**
 * The image's HEALTHCHECK: `node dist/scripts/healthcheck.js [--port N] [--path /readyz]` exits 0
 * when `http://127.0.0.1:<port><path>` answers 2xx within the timeout, 1 otherwise. The port is the
 * web process's `PORT` unless `--port` names another (a worker's metrics port, for instance); the
 * path is the readiness probe unless `--path` names another.
 */

const TIMEOUT_MS = 4000;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const port = Number(option("--port") ?? config.http.port);
  const path = option("--path") ?? "/readyz";
  const url = `http://127.0.0.1:${port}${path}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (res.ok) return 0;
    process.stderr.write(`${url} answered ${res.status}\n`);
  } catch (err) {
    process.stderr.write(`${url}: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  return 1;
}

void main().then((code) => process.exit(code));
