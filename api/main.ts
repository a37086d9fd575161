import { createServer, type RequestListener, type Server } from "node:http";
import { config } from "../shared/config";
import { closeDataSource } from "../shared/db/data-source";
import { logger } from "../shared/logger";
import { onShutdownSignal } from "../shared/shutdown";
import { startTracing, stopTracing } from "../shared/tracing/tracer";
import { createApiApp, createPlatformApp } from "./app";
import { createApiDeps } from "./deps";

/**
 * Connections the kernel may hold for us before we accept them. Node's default (511) overflowed
 * under 2,000 simultaneous clients: each overflow is a dropped connection attempt the client only
 * retries after 1 s, then 3 s. The kernel caps this at `net.core.somaxconn` (4096 by default).
 */
const LISTEN_BACKLOG = 4_096;

function listen(app: { callback(): RequestListener }, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app.callback());
    // Above typical load-balancer idle timeouts, so the balancer closes idle connections first.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.requestTimeout = 0; // synchronous runs may legitimately take minutes
    server.once("error", reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve(server));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** Boots the execution API and the platform; stops them in order on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  startTracing("web");
  const deps = await createApiDeps();
  const api = await listen(createApiApp(deps), config.http.port, config.http.host);
  const platform = await listen(createPlatformApp(deps), config.http.platformPort, config.http.host);
  logger.info({ api: config.http.publicBaseUrl, platform: config.http.platformUrl }, "web listening");

  // Stop taking requests and let those in flight finish, then close queues, Redis and Postgres.
  onShutdownSignal("web", config.http.shutdownTimeoutMs, async () => {
    await Promise.all([closeServer(api), closeServer(platform)]);
    await stopTracing(); // the spans of the requests just answered
    await deps.close();
    await closeDataSource();
  });
}

main().catch((err) => {
  logger.fatal({ err: err instanceof Error ? err.message : err }, "web could not start");
  process.exit(1);
});
