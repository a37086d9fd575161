import { expect } from "chai";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { createApiApp } from "../../api/app";
import { createRedis } from "../../shared/queues/redis";
import { exited } from "../helpers/child-process";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { spawn } from "node:child_process";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("GET /health", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("is 200 {status: ok} when Postgres and Redis answer", async () => {
    const res = await request(h.baseUrl, "GET", "/health");
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: "ok" });
  });

  it("is 503 while Redis is down, and 200 again when it is back", async function () {
    this.timeout(30_000);
    // A Redis of this test's own, so stopping it disturbs nothing else.
    const port = await freePort();
    const startRedis = () =>
      spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: "ignore",
      });
    let redisServer = startRedis();
    const redis = createRedis("request", `redis://127.0.0.1:${port}/0`);
    const app = createApiApp({ ...h.deps, redis }, { bullBoard: false });
    const server = createHttpServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await eventually(async () => ((await request(url, "GET", "/health")).status === 200 ? true : undefined));
      redisServer.kill("SIGKILL");
      await exited(redisServer);
      const down = await eventually(async () => {
        const res = await request(url, "GET", "/health");
        return res.status === 503 ? res : undefined;
      });
      expect(down.body).to.include({ status: "unavailable", code: "SERVICE_UNAVAILABLE", status_code: 503 });
      expect(down.body.checks).to.deep.equal({ postgres: true, redis: false });

      redisServer = startRedis();
      await eventually(async () => ((await request(url, "GET", "/health")).status === 200 ? true : undefined));
    } finally {
      redis.disconnect();
      server.close();
      redisServer.kill("SIGKILL");
    }
  });
});
