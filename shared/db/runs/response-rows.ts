import type { DataSource } from "typeorm";
import { sql, transaction } from "../sql";

/**
 * Deletes a response of a user (`DELETE /v1/responses/{id}`) that has ended: its run's row keeps
 * what billing and the usage report read (model, tokens, cost, times), but its conversation,
 * instructions, metadata and answer are erased, the content of its steps with them, and it is
 * marked deleted, which every Responses read treats as absent. Returns whether it was deleted,
 * `not_ended` for one still queued or in progress, or null when the user has no such response
 * (another account's, one never stored, one deleted already).
 */
export async function eraseResponse(
  ds: DataSource,
  runId: string,
  userId: string,
): Promise<"deleted" | "not_ended" | null> {
  return transaction(ds, async (tx) => {
    const erased = await sql<{ id: string }>(
      tx,
      `UPDATE runs SET output = NULL,
         request = jsonb_set(request, '{messages}', '[]'::jsonb)
           || jsonb_build_object('response', (request->'response')
             || '{"input": [], "instructions": null, "metadata": null, "deleted": true}'::jsonb)
       WHERE id = $1 AND user_id = $2 AND kind = 'response' AND status IN ('succeeded', 'failed', 'cancelled')
         AND (request->'response'->>'store')::boolean AND request->'response'->'deleted' IS NULL
       RETURNING id`,
      [runId, userId],
    );
    if (erased[0]) {
      await sql(tx, `UPDATE run_steps SET input = '[]'::jsonb, output = 'null'::jsonb WHERE run_id = $1`, [runId]);
      return "deleted";
    }
    const open = await sql(
      tx,
      `SELECT 1 FROM runs WHERE id = $1 AND user_id = $2 AND kind = 'response'
         AND status NOT IN ('succeeded', 'failed', 'cancelled')
         AND (request->'response'->>'store')::boolean AND request->'response'->'deleted' IS NULL`,
      [runId, userId],
    );
    return open[0] ? "not_ended" : null;
  });
}
