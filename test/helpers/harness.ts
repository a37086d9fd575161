import { createServer } from "node:http";
import { Client } from "pg";
import { createApiApp, createPlatformApp } from "../../api/app";
import { createPlatformServices, platformSettings } from "../../api/marketplace/platform-services";
import { closeNow, listenLocally } from "./local-server";
import { startPriceServer, type PriceServer } from "./price-server";
import { config } from "../../shared/config";
import { createApiDeps, type ApiDeps } from "../../api/deps";
import { createKey, createUser } from "./factories";
import { closeDataSource, getDataSource } from "../../shared/db/data-source";
import { createRedis } from "../../shared/queues/redis";
import { createSimulator, type Simulator } from "../../scripts/llm-simulator/server";
import { startLocalnet, type Localnet } from "../../scripts/solana-localnet/server";
import { handlers } from "../../workers/handlers";
import { startWorkers, type WorkerPool } from "../../workers/worker-pool";
import { LOCALNET_PORT, SIMULATOR_PORT } from "../env";

/** The running service for integration tests: real Postgres, Redis, BullMQ workers, HTTP and simulator. */
export interface Harness {
  baseUrl: string;
  /** The platform app (token launch, prompts, pages), served on its own port as in production. */
  platformUrl: string;
  deps: ApiDeps;
  sim: Simulator;
  /** The price endpoint behind the marketplace's USD → SOL conversion (`deps.platform.prices`). */
  prices: PriceServer;
  workers: WorkerPool;
  /** The Solana localnet at `SOLANA_RPC_URL`, started on first use. */
  localnet(): Promise<Localnet>;
  /** A fresh user with a fresh key. */
  newKey(handle?: string): Promise<{ key: string; userId: string; keyId: string }>;
}

let started: Promise<Harness> | null = null;
let localnet: Promise<Localnet> | null = null;
let teardown: (() => Promise<void>) | null = null;
let userCounter = 0;

/** Creates the test database when it does not exist yet (the app role may create databases). */
async function ensureDatabase(): Promise<void> {
  const url = new URL(config.databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const client = new Client({ connectionString: url.href });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
}

/** Drops and re-creates the test schema, then applies every migration. */
async function resetDatabase(): Promise<void> {
  await ensureDatabase();
  const ds = await getDataSource();
  await ds.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
  await ds.runMigrations({ transaction: "each" });
}

async function flushRedis(): Promise<void> {
  const redis = createRedis("blocking");
  await redis.flushdb();
  redis.disconnect();
}

/** Starts the shared harness once; later calls get the same one. */
export function harness(): Promise<Harness> {
  started ??= (async () => {
    await Promise.all([resetDatabase(), flushRedis()]);
    const sim = await createSimulator({ port: SIMULATOR_PORT });
    // Prompt prices are converted through a local CoinGecko-compatible endpoint (1 SOL = $150).
    const prices = await startPriceServer({ usd: 150 });
    const deps = await createApiDeps(
      createPlatformServices(platformSettings({ prices: { ...config.prices, sourceUrl: prices.url } })),
    );
    const workers = await startWorkers(["agent", "swarm", "chain"], handlers, deps.ds);
    const [server, platform] = [
      createServer(createApiApp(deps).callback()),
      createServer(createPlatformApp(deps).callback()),
    ];
    const [baseUrl, platformUrl] = await Promise.all([listenLocally(server), listenLocally(platform)]);
    teardown = async () => {
      await Promise.all([server, platform].map(closeNow));
      await workers.close();
      await deps.close();
      await closeDataSource();
      await sim.close();
      await prices.close();
      if (localnet) await (await localnet).close();
    };
    return {
      baseUrl,
      platformUrl,
      deps,
      sim,
      prices,
      workers,
      localnet: () => (localnet ??= startLocalnet({ port: LOCALNET_PORT })),
      async newKey(handle = `user-${process.pid}-${++userCounter}`) {
        const user = await createUser(deps.ds, handle);
        return createKey(deps.ds, { userId: user.id });
      },
    };
  })();
  return started;
}

/** The shared harness and a fresh user's key: what most suites need before their first test. */
export async function harnessWithKey(): Promise<{ h: Harness; key: string }> {
  const h = await harness();
  const { key } = await h.newKey();
  return { h, key };
}

/** Mocha root hooks: close the harness after the last test, if any test started it. */
export const mochaHooks = {
  async afterAll() {
    await teardown?.();
  },
};
