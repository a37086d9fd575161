import { join } from "node:path";
import Redis from "ioredis";
import { Client } from "pg";
import { nodeTsx, ROOT, runToCompletion } from "./managed-process";

// Postgres and Redis for a benchmark run: running, emptied, migrated, with an API key to call with.

/**
 * Runs `scripts/ensure-services.sh --database <name>`: starts Postgres and Redis if needed and
 * creates the database. Idempotent and fast when everything already runs.
 */
export async function ensureServices(database: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  await runToCompletion(
    "ensure-services",
    ["bash", join(ROOT, "scripts/ensure-services.sh"), "--database", database],
    env,
    logFile,
    600_000,
  );
}

/**
 * Drops and creates again the database `url` names, so every benchmark starts on empty tables:
 * rows left by earlier runs (hundreds of thousands after a throughput run) would otherwise make
 * each run's inserts slower than the last, and figures from different days incomparable.
 * Connects to the server's `postgres` database as the same role, which owns the bench database.
 */
export async function recreateDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new Client({ connectionString: admin.href });
  await client.connect();
  try {
    const quoted = `"${name.replace(/"/g, '""')}"`;
    await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoted}`);
  } finally {
    await client.end();
  }
}

/** Drops the database `url` names (a benchmark's own, at its end). */
export async function dropDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new Client({ connectionString: admin.href });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Deletes the keys of the Redis database at `url` that start with `prefix` (one stack's, whatever else shares it). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    // MATCH is a glob: escape its special characters so the prefix matches only itself.
    const pattern = `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/** Empties the Redis database at `url`, so no job, event or rate-limit counter of an earlier run is replayed. */
export async function flushRedisDb(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/** Applies the migrations to the database named by `env.DATABASE_URL` (the `release` step). */
export async function migrateDatabase(env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  await runToCompletion("migrate", nodeTsx("scripts/migrate.ts"), env, logFile);
}

/** Creates an API key for `user` through the project's CLI and returns it (its last stdout line). */
export async function createApiKey(user: string, env: NodeJS.ProcessEnv, logFile: string): Promise<string> {
  const stdout = await runToCompletion("apikey", nodeTsx("scripts/apikey.ts", "create", "--user", user), env, logFile);
  const key = stdout.trim().split("\n").at(-1)?.trim();
  if (!key || /\s/.test(key)) throw new Error(`apikey printed no key on its last line:\n${stdout}`);
  return key;
}
