import type { Client } from "pg";

/** Round-trip times of durable commits, in ms. */
export interface CommitLatency {
  commits: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * How long a durable commit takes on this machine's Postgres, as a client waits for it: `commits`
 * one-row inserts in a row, each its own transaction with `synchronous_commit = on`. A run's
 * completion is such a commit (it is on disk before the answer), so this is the part of the added
 * latency at one client that no change to the service can remove; it is read beside that figure.
 * The rows go to a scratch table of the stack's database, dropped after.
 */
export async function measureCommitLatency(client: Client, commits = 200): Promise<CommitLatency> {
  await client.query("CREATE TABLE IF NOT EXISTS bench_commit_probe (n int)");
  await client.query("SET synchronous_commit = on");
  const times: number[] = [];
  try {
    for (let i = 0; i < commits; i++) {
      const started = process.hrtime.bigint();
      await client.query("INSERT INTO bench_commit_probe VALUES ($1)", [i]);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    await client.query("DROP TABLE bench_commit_probe");
  }
  times.sort((a, b) => a - b);
  return { commits, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) };
}
