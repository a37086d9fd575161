import type { DataSource } from "typeorm";
import type { Run, RunKind } from "../entities/run.entity";
import type { StoredSecret } from "../../secrets/run-secrets";
import { sql, transaction } from "../sql";

export interface NewBatch {
  parentId: string;
  parentKind: RunKind;
  childKind: RunKind;
  apiKeyId: string;
  userId: string;
  parentRequest: unknown;
  /** Where the whole batch's end is reported, if anywhere. */
  webhookUrl?: string | null;
  /** One per item, in request order, each with where its own end is reported, if anywhere. */
  children: { id: string; request: unknown; sealedSecrets: StoredSecret[] | null; webhookUrl?: string | null }[];
}

/** Stores a batch's parent run and its children (one per item, with their positions) in one transaction. */
export async function insertBatch(ds: DataSource, batch: NewBatch): Promise<void> {
  await transaction(ds, async (tx) => {
    await sql(
      tx,
      `INSERT INTO runs (id, job_id, kind, api_key_id, user_id, status, request, webhook_url)
       VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)`,
      [
        batch.parentId,
        batch.parentId,
        batch.parentKind,
        batch.apiKeyId,
        batch.userId,
        JSON.stringify(batch.parentRequest),
        batch.webhookUrl ?? null,
      ],
    );
    // One multi-row insert: a 100-item batch is one round trip, not a hundred.
    await sql(
      tx,
      `INSERT INTO runs (id, job_id, kind, parent_id, api_key_id, user_id, status, request, sealed_secrets, item_index, webhook_url)
       SELECT c.id, c.id::text, $2, $3, $4, $5, 'queued', c.request, c.sealed_secrets, c.idx, c.webhook_url
         FROM unnest($1::uuid[], $6::jsonb[], $8::jsonb[], $7::int[], $9::text[])
           AS c(id, request, sealed_secrets, idx, webhook_url)`,
      [
        batch.children.map((c) => c.id),
        batch.childKind,
        batch.parentId,
        batch.apiKeyId,
        batch.userId,
        batch.children.map((c) => JSON.stringify(c.request)),
        batch.children.map((_, i) => i),
        batch.children.map((c) => (c.sealedSecrets ? JSON.stringify(c.sealedSecrets) : null)),
        batch.children.map((c) => c.webhookUrl ?? null),
      ],
    );
  });
}

/** The children of a parent run, in item order. */
export async function loadChildren(ds: DataSource, parentId: string): Promise<Run[]> {
  return sql<Run>(ds, `SELECT * FROM runs WHERE parent_id = $1 ORDER BY item_index`, [parentId]);
}
