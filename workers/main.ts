import { closeDataSource, getDataSource } from "../shared/db/data-source";
import { config } from "../shared/config";
import { logger } from "../shared/logger";
import { onShutdownSignal } from "../shared/shutdown";
import { isQueueName, QUEUE_NAMES, type QueueName } from "../shared/queues/registry";
import { handlers } from "./handlers";
import { assertHandlersFor, startWorkers } from "./worker-pool";

/** `--queues agent,swarm` or `--queues agent --queues swarm` → queue names (all when absent). */
export function parseQueuesArg(argv: string[]): QueueName[] {
  const names: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === "--queues") names.push(...(argv[i + 1] ?? "").split(","));
    else if (arg.startsWith("--queues=")) names.push(...arg.slice("--queues=".length).split(","));
  });
  const wanted = names.map((n) => n.trim()).filter(Boolean);
  const unknown = wanted.filter((n) => !isQueueName(n));
  if (unknown.length) throw new Error(`Unknown queue(s): ${unknown.join(", ")} (known: ${QUEUE_NAMES.join(", ")})`);
  return wanted.length ? [...new Set(wanted as QueueName[])] : [...QUEUE_NAMES];
}

async function main(): Promise<void> {
  const queues = parseQueuesArg(process.argv.slice(2));
  assertHandlersFor(queues, handlers); // before touching Redis or Postgres
  const ds = await getDataSource();
  const pool = await startWorkers(queues, handlers, ds);
  logger.info({ queues, worker: pool.name }, "workers started");

  // Take no more jobs and let those in hand finish for up to WORKER_DRAIN_MS; hand back those still
  // running, then close Redis and Postgres. SHUTDOWN_TIMEOUT_MS more is the limit on the rest.
  const { drainMs } = config.queue;
  onShutdownSignal("workers", drainMs + config.http.shutdownTimeoutMs, async () => {
    await pool.close(drainMs);
    await closeDataSource();
  });
}

if (require.main === module) {
  main().catch((err) => {
    logger.fatal({ err: err instanceof Error ? err.message : err }, "workers could not start");
    process.exit(1);
  });
}
