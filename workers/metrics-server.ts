import { logger } from "../shared/logger";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { config } from "../shared/config";
import { metricsAccess, refusalOf } from "../shared/metrics/access";
import { addProcessMetrics, workerRegistry } from "../shared/metrics/registry";
import { createRedis, type RedisClient } from "../shared/queues/redis";
import type { DataSource } from "typeorm";
import {
  migrationsApplied,
  postgresAnswers,
  readinessAnswer,
  redisAnswers,
  type Checks,
} from "../shared/health/probes";
import { isShuttingDown } from "../shared/shutdown";
import type { WorkerPool } from "./worker-pool";

/** A worker process's metrics and probes port. */
export interface WorkerMetricsServer {
  /** Where it listens, e.g. `http://127.0.0.1:9464`. */
  url: string;
  close(): Promise<void>;
}

/** Whether every worker of the pool is taking jobs (or held back by memory) and Redis answers within a second. */
async function isAlive(
  pool: WorkerPool | undefined,
  redisClient: RedisClient,
): Promise<{ running: boolean; redis: boolean }> {
  // A worker held back by its memory ceiling stops its fetch loop on purpose and resumes on its own.
  const running = pool !== undefined && (pool.heldForMemory() || pool.workers.every((w) => w.isRunning()));
  return { running, redis: await redisAnswers(redisClient) };
}

/**
 * Whether this worker process takes jobs now (`/readyz`): Postgres and Redis answer, the schema is
 * the one this code expects, and its workers run: started, not draining, not held back by memory.
 */
async function readiness(pool: WorkerPool | undefined, redisClient: RedisClient, ds: DataSource): Promise<Checks> {
  const [postgres, redis, migrations] = await Promise.all([
    postgresAnswers(ds),
    redisAnswers(redisClient),
    migrationsApplied(ds),
  ]);
  const takingJobs =
    pool !== undefined && !isShuttingDown() && !pool.heldForMemory() && pool.workers.every((w) => w.isRunning());
  return { postgres, redis, migrations, taking_jobs: takingJobs };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
  res.end(body);
}

async function answer(
  pool: () => WorkerPool | undefined,
  redis: RedisClient,
  ds: DataSource,
  token: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain", "Method Not Allowed");
  // Liveness: the process's event loop answers; nothing else is asked, so an outage restarts nothing.
  if (path === "/livez") return send(res, 200, "application/json", JSON.stringify({ status: "ok" }));
  if (path === "/readyz") {
    const { status, body } = readinessAnswer(await readiness(pool(), redis, ds));
    return send(res, status, "application/json", JSON.stringify(body));
  }
  if (path === "/health") {
    const checks = await isAlive(pool(), redis);
    const ok = checks.running && checks.redis;
    return send(res, ok ? 200 : 503, "application/json", JSON.stringify({ status: ok ? "ok" : "unavailable", checks }));
  }
  if (path !== "/metrics") return send(res, 404, "text/plain", "Not Found");
  // METRICS_TOKEN when set; without it, loopback clients only, wherever WORKER_METRICS_HOST binds.
  const access = metricsAccess(
    { token, production: config.env === "production", internalPort: true },
    req.headers.authorization,
    req.socket.remoteAddress,
    Boolean(req.headers["x-forwarded-for"] || req.headers.forwarded),
  );
  if (access !== "allowed") {
    const { status, message } = refusalOf(access);
    return send(res, status, "text/plain", message);
  }
  send(res, 200, workerRegistry.contentType, await workerRegistry.metrics());
}

/**
 * Serves `GET /livez` (200 while the process answers), `GET /readyz` (200 while it takes jobs and
 * Postgres, Redis and the schema are as it needs, else 503 naming the failed checks),
 * `GET /health` (200 while the pool's workers run and Redis answers, else 503) and
 * `GET /metrics` (this process's runs, LLM calls, retries, budget stops and Node process metrics)
 * on `host:port`. Rejects when the port cannot be taken. `pool` gives the process's workers once
 * they run (the port is taken first, so a taken port stops the process before it takes a job).
 */
export function startWorkerMetricsServer(
  pool: () => WorkerPool | undefined,
  ds: DataSource,
  { port, host, token = config.metrics.token }: { port: number; host: string; token?: string },
): Promise<WorkerMetricsServer> {
  addProcessMetrics(workerRegistry);
  const redis = createRedis("request");
  const server: Server = createServer((req, res) => {
    // The reason goes to the log, not to whoever asked.
    answer(pool, redis, ds, token, req, res).catch((err: unknown) => {
      logger.warn({ err }, "worker metrics request failed");
      send(res, 500, "text/plain", "metrics failed");
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", (err) => {
      redis.disconnect();
      reject(err);
    });
    server.listen({ port, host }, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
            redis.disconnect();
          }),
      });
    });
  });
}
