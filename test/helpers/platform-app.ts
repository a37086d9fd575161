import { createServer } from "node:http";
import type Koa from "koa";
import { createApiApp, createPlatformApp } from "../../api/app";
import type { ApiDeps } from "../../api/deps";
import type { PlatformServices } from "../../api/marketplace/platform-services";
import type { Harness } from "./harness";
import { closeNow, listenLocally } from "./local-server";

/** A Koa app served on a free loopback port. */
export interface ServedApp {
  url: string;
  close(): Promise<void>;
}

/** Serves `app` on a free loopback port. */
export async function serveApp(app: Koa): Promise<ServedApp> {
  const server = createServer(app.callback());
  return { url: await listenLocally(server), close: () => closeNow(server) };
}

/**
 * A platform app of its own (same Postgres, Redis and workers as the harness) with the services a
 * test chooses, and optionally other deps (e.g. session settings).
 */
export function servePlatform(h: Harness, services: PlatformServices, deps: ApiDeps = h.deps): Promise<ServedApp> {
  return serveApp(createPlatformApp({ ...deps, platform: services }));
}

/**
 * An execution API of its own (same Postgres, Redis and workers as the harness) whose marketplace
 * publishing uses the services a test chooses (tiny daily limits, a price source that is down).
 */
export function serveExecutionApi(h: Harness, services: PlatformServices): Promise<ServedApp> {
  return serveApp(createApiApp({ ...h.deps, platform: services }, { bullBoard: false }));
}
