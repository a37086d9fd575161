import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPlatformApp } from "../../api/app";
import type { ApiDeps } from "../../api/deps";
import type { PlatformServices } from "../../api/services/platform-services";
import type { Harness } from "./harness";

/** A platform app of its own (same Postgres, Redis and workers as the harness) with the services a test chooses. */
export interface ServedPlatform {
  url: string;
  close(): Promise<void>;
}

/** Serves a platform app with the given services (and, optionally, deps such as other session settings). */
export async function servePlatform(h: Harness, services: PlatformServices, deps: ApiDeps = h.deps): Promise<ServedPlatform> {
  const server = createServer(createPlatformApp(deps, services).callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
