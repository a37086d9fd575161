import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";

function listenOnAnyPort(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => resolve(server));
  });
}

/**
 * Returns `count` distinct ports the OS considers free on `host`. All servers stay open until
 * every port is picked, so the OS cannot hand out the same port twice; there is still a small
 * window before the child processes bind them, which is acceptable on a benchmark machine.
 */
export async function freePorts(count: number, host = "127.0.0.1"): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnAnyPort(host));
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
