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
import { createDataSource } from "../../shared/db/data-source";
import { config } from "../../shared/config";

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

describe("GET /livez and GET /readyz", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("are 200 on both ports while the process can serve, with every readiness check named", async () => {
    for (const base of [h.baseUrl, h.platformUrl]) {
      expect((await request(base, "GET", "/livez")).body).to.deep.equal({ status: "ok" });
      const ready = await request(base, "GET", "/readyz");
      expect(ready.status, base).to.equal(200);
      expect(ready.body).to.deep.equal({
        status: "ready",
        checks: { postgres: true, redis: true, migrations: true, serving: true },
      });
    }
  });

  it("/readyz is 503 while Redis is down, /livez stays 200 (liveness asks neither Postgres nor Redis)", async function () {
    this.timeout(30_000);
    // A Redis client pointed where nothing listens: the fail-fast client never connects.
    const redis = createRedis("request", `redis://127.0.0.1:${await freePort()}/0`);
    const app = createApiApp({ ...h.deps, redis }, { bullBoard: false });
    const server = createHttpServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const down = await request(url, "GET", "/readyz");
      expect(down.status).to.equal(503);
      expect(down.body).to.include({ status: "unavailable", code: "SERVICE_UNAVAILABLE", status_code: 503 });
      expect(down.body.detail).to.equal("Not ready: redis");
      expect(down.body.checks).to.deep.equal({ postgres: true, redis: false, migrations: true, serving: true });
      const live = await request(url, "GET", "/livez");
      expect(live.status).to.equal(200);
    } finally {
      redis.disconnect();
      server.close();
    }
  });

  it("/readyz is 503 while a migration this code knows is not applied, and 200 once it is", async () => {
    // A data source of its own: the probe remembers a data source whose schema it once found current.
    const ds = createDataSource(config.databaseUrl);
    await ds.initialize();
    const app = createApiApp({ ...h.deps, ds }, { bullBoard: false });
    const server = createHttpServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [last] = (await ds.query(`SELECT id, timestamp, name FROM migrations ORDER BY id DESC LIMIT 1`)) as {
      id: number;
      timestamp: string;
      name: string;
    }[];
    await ds.query(`DELETE FROM migrations WHERE id = $1`, [last.id]);
    try {
      const behind = await request(url, "GET", "/readyz");
      expect(behind.status).to.equal(503);
      expect(behind.body.checks).to.deep.equal({ postgres: true, redis: true, migrations: false, serving: true });
      expect((await request(url, "GET", "/livez")).status).to.equal(200);
    } finally {
      await ds.query(`INSERT INTO migrations (id, timestamp, name) VALUES ($1, $2, $3)`, [
        last.id,
        last.timestamp,
        last.name,
      ]);
    }
    try {
      expect((await request(url, "GET", "/readyz")).status).to.equal(200);
    } finally {
      server.close();
      await ds.destroy();
    }
  });
});
