import { join } from "node:path";
import { startProcess, type ManagedProcess } from "../../../scripts/bench/stack/managed-process";
import { redisServerBinary } from "./server-binaries";

/** A Redis server of the test's own, which it may kill and start again. */
export interface ThrowawayRedis {
  port: number;
  /** URL of one of its numbered databases. */
  url(db?: number): string;
  /** Kills the server with `signal` (SIGKILL: a crash; SIGTERM: a clean shutdown). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, from its append-only file; resolves once it is ready. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * Runs `redis-server` in the foreground on `port` with its data in `dir`. It persists every write
 * to an append-only file before answering (`appendfsync always`), as a production Redis behind
 * BullMQ should persist (see the README): a restart then brings every queued job back, and what
 * the tests measure is how the service rides out the outage, not data the server threw away.
 */
export async function startThrowawayRedis(dir: string, port: number): Promise<ThrowawayRedis> {
  const command = [
    redisServerBinary(),
    ...["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--daemonize", "no"],
    ...["--save", "", "--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"],
  ];
  let server: ManagedProcess | null = null;
  const start = async () => {
    server = startProcess("redis", command, process.env, join(dir, "redis.log"));
    await server.waitForOutput(/Ready to accept connections/, READY_TIMEOUT_MS);
  };
  const stop = async (signal: NodeJS.Signals = "SIGKILL") => {
    const proc = server;
    server = null;
    await proc?.kill(signal);
  };
  await start();
  return { port, url: (db = 0) => `redis://127.0.0.1:${port}/${db}`, stop, start, close: () => stop("SIGKILL") };
}
