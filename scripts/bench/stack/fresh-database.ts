import { Client } from "pg";

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
