import { closeDataSource, getDataSource } from "../shared/db/data-source";
import { config } from "../shared/config";
import { logger } from "../shared/logger";
import { onShutdownSignal } from "../shared/shutdown";
import { startTracing, stopTracing } from "../shared/tracing/tracer";
import { isQueueName, QUEUE_NAMES, type QueueName } from "../shared/queues/queue-names";
import { handlers } from "./handlers";
import { startWorkerMetricsServer } from "./metrics-server";
import { assertHandlersFor, startWorkers, type WorkerPool } from "./worker-pool";
import { startWebhookSender, type WebhookSender } from "./webhooks/webhook-sender";

/** What a worker process may do: take one of the BullMQ queues' jobs, or deliver run webhooks (from Postgres). */
export type WorkerTask = QueueName | "webhooks";

const WORKER_TASKS: readonly WorkerTask[] = [...QUEUE_NAMES, "webhooks"];

const isWorkerTask = (name: string): name is WorkerTask => isQueueName(name) || name === "webhooks";

/**
 * `--queues agent,swarm` or `--queues agent --queues swarm` → what the process does (all of it when
 * absent); `webhooks` is the webhook sender, a worker type of its own that operators scale apart.
 */
export function parseQueuesArg(argv: string[]): WorkerTask[] {
  const names: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === "--queues") names.push(...(argv[i + 1] ?? "").split(","));
    else if (arg.startsWith("--queues=")) names.push(...arg.slice("--queues=".length).split(","));
  });
  const wanted = names.map((n) => n.trim()).filter(Boolean);
  const unknown = wanted.filter((n) => !isWorkerTask(n));
  if (unknown.length) throw new Error(`Unknown queue(s): ${unknown.join(", ")} (known: ${WORKER_TASKS.join(", ")})`);
  return wanted.length ? [...new Set(wanted as WorkerTask[])] : [...WORKER_TASKS];
}

/** `--metrics-port 9465` (or `--metrics-port=9465`) → that port; `WORKER_METRICS_PORT` when absent. */
export function parseMetricsPortArg(argv: string[], fallback: number): number {
  const i = argv.findIndex((arg) => arg === "--metrics-port" || arg.startsWith("--metrics-port="));
  if (i < 0) return fallback;
  const raw = argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : (argv[i + 1] ?? "");
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new Error(`--metrics-port wants a port number (0–65535), not '${raw}'`);
  return port;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const tasks = parseQueuesArg(argv);
  const queues = tasks.filter(isQueueName);
  const metricsPort = parseMetricsPortArg(argv, config.metrics.workerPort);
  assertHandlersFor(queues, handlers); // before touching Redis or Postgres
  const ds = await getDataSource();
  // The port first: a worker nobody can watch is a deploy mistake, stopped before it takes a job.
  const started: { pool?: WorkerPool } = {};
  const metrics = await startWorkerMetricsServer(() => started.pool, ds, {
    port: metricsPort,
    host: config.metrics.workerHost,
  }).catch((err: unknown) => {
    throw new Error(
      `worker metrics port ${config.metrics.workerHost}:${metricsPort} unavailable (set WORKER_METRICS_PORT or --metrics-port): ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  // Before the first job, so every run it takes is traced (when an endpoint is configured).
  startTracing(`worker-${tasks.join("-")}`);
  const pool = await startWorkers(queues, handlers, ds);
  started.pool = pool;
  const sender: WebhookSender | null = tasks.includes("webhooks") ? startWebhookSender(ds) : null;
  logger.info({ queues: tasks, worker: pool.name, metrics: metrics.url }, "workers started");

  // Take no more jobs and let those in hand finish for up to WORKER_DRAIN_MS; hand back those still
  // running, then close Redis and Postgres. SHUTDOWN_TIMEOUT_MS more is the limit on the rest.
  const { drainMs } = config.queue;
  onShutdownSignal("workers", drainMs + config.http.shutdownTimeoutMs, async () => {
    await Promise.all([pool.close(drainMs), sender?.close()]);
    await stopTracing(); // the spans of the runs it just finished
    await metrics.close();
    await closeDataSource();
  });
}

if (require.main === module) {
  main().catch((err) => {
    logger.fatal({ err: err instanceof Error ? err.message : err }, "workers could not start");
    process.exit(1);
  });
}
