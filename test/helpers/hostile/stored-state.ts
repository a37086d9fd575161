import type { Queue } from "bullmq";
import type { DataSource } from "typeorm";

/** Per table: its row count and a hash of all its rows. */
export type TableFingerprints = Record<string, { rows: number; hash: string }>;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tableNames(ds: DataSource): Promise<string[]> {
  const rows: { table_name: string }[] = await ds.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

/** Row count and content hash of every table of the schema, in one statement. */
export async function fingerprintTables(ds: DataSource): Promise<TableFingerprints> {
  const tables = await tableNames(ds);
  const parts = tables.map(
    (t, i) =>
      `SELECT $${i + 1}::text AS name, count(*)::int AS rows, md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS hash FROM ${quote(t)} r`,
  );
  const rows: { name: string; rows: number; hash: string }[] = await ds.query(parts.join(" UNION ALL "), tables);
  return Object.fromEntries(rows.map((r) => [r.name, { rows: r.rows, hash: r.hash }]));
}

/** Tables whose count or content differ between two fingerprints, with their counts. */
export function changedTables(before: TableFingerprints, after: TableFingerprints): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names
    .filter((n) => before[n]?.rows !== after[n]?.rows || before[n]?.hash !== after[n]?.hash)
    .map(
      (n) =>
        `${n}: ${before[n]?.rows ?? "absent"} → ${after[n]?.rows ?? "absent"} rows${before[n]?.rows === after[n]?.rows ? " (content changed)" : ""}`,
    );
}

/** Per queue: how many jobs it holds in each state (completed jobs are kept, so an added job shows). */
export async function fingerprintQueues(queues: Queue[]): Promise<Record<string, Record<string, number>>> {
  return Object.fromEntries(
    await Promise.all(queues.map(async (queue) => [queue.name, await queue.getJobCounts()] as const)),
  );
}

/** Columns that point at a user or an API key (foreign keys), so rows can be traced to the caller that made them. */
async function ownerColumns(
  ds: DataSource,
): Promise<{ table: string; column: string; target: "users" | "api_keys" }[]> {
  const rows: { table_name: string; column_name: string; target: "users" | "api_keys" }[] = await ds.query(`
    SELECT DISTINCT kcu.table_name, kcu.column_name, ccu.table_name AS target
    FROM information_schema.table_constraints tc
    JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
    JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
    WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public' AND ccu.table_name IN ('users', 'api_keys')
    ORDER BY 1, 2`);
  return rows.map((r) => ({ table: r.table_name, column: r.column_name, target: r.target }));
}

/** For each caller (user id and key id), the number of rows in each table that point at it: `table.column → count`. */
export async function rowsOwnedBy(
  ds: DataSource,
  callers: { userId: string; keyId: string }[],
): Promise<Map<string, Record<string, number>>> {
  const owned = new Map(callers.map((c) => [c.keyId, {} as Record<string, number>]));
  const byUser = new Map(callers.map((c) => [c.userId, c.keyId]));
  for (const { table, column, target } of await ownerColumns(ds)) {
    const ids = target === "users" ? [...byUser.keys()] : callers.map((c) => c.keyId);
    const rows: { id: string; n: number }[] = await ds.query(
      `SELECT ${quote(column)}::text AS id, count(*)::int AS n FROM ${quote(table)} WHERE ${quote(column)} = ANY($1::uuid[]) GROUP BY 1`,
      [ids],
    );
    for (const row of rows) {
      const keyId = target === "users" ? byUser.get(row.id)! : row.id;
      owned.get(keyId)![`${table}.${column}`] = row.n;
    }
  }
  return owned;
}

/** What a prototype-pollution attempt would change: the own keys of the built-in prototypes. */
export function prototypeFingerprint(): string {
  const protos = {
    Object: Object.prototype,
    Array: Array.prototype,
    Function: Function.prototype,
    String: String.prototype,
  };
  return JSON.stringify(
    Object.fromEntries(Object.entries(protos).map(([name, proto]) => [name, Object.getOwnPropertyNames(proto).sort()])),
  );
}

const JOB_STATES = ["active", "completed", "delayed", "failed", "prioritized", "waiting", "waiting-children"] as const;

/** Every job the queues hold, by id, with its payload. */
export async function queuedJobs(queues: Queue[]): Promise<Map<string, { queue: string; data: unknown }>> {
  const jobs = new Map<string, { queue: string; data: unknown }>();
  for (const queue of queues) {
    for (const job of await queue.getJobs([...JOB_STATES], 0, -1))
      if (job?.id) jobs.set(job.id, { queue: queue.name, data: job.data });
  }
  return jobs;
}
