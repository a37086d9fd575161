import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Starts `server` listening on `host` (loopback by default) at `port` (a free one by default); returns its base URL. */
export async function listenLocally(server: Server, port = 0, host = "127.0.0.1"): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** Closes `server` now: kept-alive connections too, so a test's teardown never waits for them to idle out. */
export async function closeNow(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
