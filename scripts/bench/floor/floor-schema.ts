import { Client } from "pg";

/**
 * The floor's run table: a minimal copy of `runs` with the columns the design's contracts need
 * (the row before the job, the request the worker claims, the durable result) and nothing else,
 * so the floor pays for no index or column of the product's table that the spine does not need.
 */
const CREATE_RUNS = `
  CREATE TABLE runs (
    id uuid PRIMARY KEY,
    account text NOT NULL,
    status text NOT NULL,
    request jsonb NOT NULL,
    result jsonb,
    queued_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    finished_at timestamptz
  )`;

/** Creates the floor's table in the (fresh, empty) database at `url`. */
export async function createFloorSchema(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(CREATE_RUNS);
  } finally {
    await client.end();
  }
}
