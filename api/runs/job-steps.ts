import type { DataSource } from "typeorm";
import { loadLedgerLines, type LedgerLine, type LedgerLineKey } from "../../shared/db/run-ledger-lines-store";
import { loadChildren } from "../../shared/db/runs/run-batches";
import { findRunForUser } from "../../shared/db/runs/run-rows";
import { isUuid } from "../../shared/db/uuid";
import { NotFoundError } from "../../shared/errors";
import { hasChildren } from "../../shared/runs/run-kind-catalog";
import { decodeCursor, encodeCursor } from "./page-cursor";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";

/** `GET /v1/jobs/{job_id}/steps`'s query, validated. */
export interface JobStepsQuery {
  limit: number;
  cursor?: string;
}

/** One line of a run's bill as the steps endpoint shows it. */
interface JobStep {
  job_id: string;
  type: LedgerLine["type"];
  agent: string | null;
  role: string | null;
  model: string | null;
  input_tokens: number;
  output_tokens: number;
  cost: number;
  latency_ms: number;
  status: string;
  charge: string | null;
  started_at: string;
  finished_at: string;
  attempt: number;
  reused: boolean;
}

const dollarsOf = (micros: string | number) => Number(micros) / 1e6;

function presentStep(line: LedgerLine): JobStep {
  const started = new Date(line.started_at);
  const finished = new Date(line.finished_at);
  return {
    job_id: line.job_id,
    type: line.type,
    agent: line.agent,
    role: line.role,
    model: line.model,
    input_tokens: line.input_tokens,
    output_tokens: line.output_tokens,
    cost: dollarsOf(line.micros),
    latency_ms: finished.getTime() - started.getTime(),
    status: line.status,
    charge: line.charge,
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
    attempt: line.attempt,
    // A finished call or a charge of an earlier attempt is taken from the record by each later
    // one, never made or billed again; a cut-off or interrupted call is made again.
    reused: line.attempt < line.run_attempt && line.status !== "cut_off" && line.status !== "interrupted",
  };
}

const isLineKey = (value: unknown): value is LedgerLineKey => {
  const key = value as LedgerLineKey;
  const small = (n: unknown) => Number.isInteger(n) && (n as number) >= 0 && (n as number) < 2 ** 31;
  return typeof key === "object" && key !== null && small(key.pos) && small(key.section) && small(key.n);
};

/**
 * `GET /v1/jobs/{job_id}/steps`: the lines of a run's bill, a page at a time: every LLM and tool
 * call (agent, role, model, tokens, cost, latency, how it ended, when), then every charge that is
 * not a call (per-agent fees, tool fees, images, refunds, discounts), whose costs add up to
 * `total_cost`, the run's bill. A batch answers its items' lines in item order, each naming its
 * item; they add up to the batch's bill.
 */
export async function listJobSteps(ds: DataSource, jobId: string, userId: string, query: JobStepsQuery) {
  const run = isUuid(jobId) ? await findRunForUser(ds, jobId, userId) : null;
  if (!run) throw new NotFoundError(`No job '${jobId}' for this API key's account`);
  const binding = JSON.stringify(["steps", userId, run.id]);
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, binding, isLineKey);
  const runIds = hasChildren(run.kind) ? (await loadChildren(ds, run.id)).map((item) => item.id) : [run.id];
  // One more line than asked tells whether there is a next page.
  const { lines, totalMicros, count } = await loadLedgerLines(ds, runIds, after, query.limit + 1);
  const page = lines.slice(0, query.limit);
  const last = page.at(-1);
  const more = lines.length > query.limit && last;
  return {
    job_id: run.job_id,
    status: PUBLIC_STATUS[run.status],
    total_cost: dollarsOf(totalMicros),
    total_steps: count,
    steps: page.map(presentStep),
    next_cursor: more ? encodeCursor({ pos: last.pos, section: last.section, n: last.n }, binding) : null,
  };
}
