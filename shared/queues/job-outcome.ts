import { everyAgent } from "../contracts/agent-tree";
import type { AgentSpec } from "../contracts/agent-spec";
import type { Run, RunStatus } from "../db/entities/run.entity";
import { agentsOf, oneLine } from "./job-description";

/** How many characters of a run's output an operator sees. */
const OUTPUT_PREVIEW_CHARS = 160;
/** How deep into an output the preview looks for text. */
const MAX_OUTPUT_DEPTH = 8;

/**
 * How a run ended, as its job shows it on Bull Board next to `runId` (the job's return value; a
 * failed job's reason and log instead, as BullMQ keeps no return value for those). Read from the
 * run's final row, so the board says what Postgres says.
 */
export interface JobOutcome {
  status: RunStatus;
  /** Tokens the run used (its replayed steps included), when it recorded usage. */
  tokens?: number;
  /** What the run is billed, in US dollars, when it recorded usage. */
  cost?: number;
  /**
   * The start of the output's last text (for most runs, the last agent's answer), on one line.
   * Left out for a run the service made on its own behalf and for one whose agents use a
   * marketplace prompt: their output may quote a seller's listing or a paid prompt's text.
   */
  output?: string;
  /** A failed run's error, as its client was told. */
  error?: string;
}

/** A job's progress as Bull Board shows it: steps finished, of `total` when the run's schedule fixes it. */
export interface JobProgress {
  done: number;
  total?: number;
}

/**
 * A run's steps as its job's return value carries them when no write did (a run that ended
 * within its first report window, see workers/coalesced-job-report.ts): its progress and its
 * calls' log lines, which a longer run's job shows as its progress and log instead.
 */
export interface JobSteps {
  progress?: JobProgress;
  log?: string[];
}

/** Where an output keeps its text, most telling first (a turn's `content`, a swarm's `output`). */
const TEXT_KEYS = ["content", "output", "outputs"];

/**
 * The last non-empty text of an output: arrays (conversations) are searched from their end; an
 * object by its text keys first, then its other values. Postgres hands jsonb objects back with
 * their keys reordered, so an object's text is found by name rather than by position.
 */
function lastText(value: unknown, depth = 0): string | undefined {
  if (typeof value === "string") return value.trim() ? value : undefined;
  if (depth >= MAX_OUTPUT_DEPTH || value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) {
      const text = lastText(value[i], depth + 1);
      if (text !== undefined) return text;
    }
    return undefined;
  }
  // Each value is looked at once: the text keys first, then the others from the last.
  const record = value as Record<string, unknown>;
  const others = Object.keys(record)
    .filter((key) => !TEXT_KEYS.includes(key))
    .reverse();
  for (const key of [...TEXT_KEYS, ...others]) {
    const text = lastText(record[key], depth + 1);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** A batch parent's output: its items' job ids and how many succeeded. */
function batchSummary(output: unknown): string | undefined {
  const batch = output as { items?: unknown; succeeded?: unknown };
  if (!Array.isArray(batch?.items) || typeof batch.succeeded !== "number") return undefined;
  return `${batch.succeeded} of ${batch.items.length} items succeeded`;
}

/** Whether any of the agents, or of their handoffs, uses a marketplace prompt. */
function usesMarketplacePrompt(specs: AgentSpec[]): boolean {
  return everyAgent(specs).some(({ spec }) => !!spec.marketplace_prompt_id?.trim());
}

/** Whether an operator may see the start of the run's output (see `JobOutcome.output`). */
function outputIsShown(run: Pick<Run, "api_key_id" | "request">): boolean {
  if (run.api_key_id === null) return false;
  const request = (run.request && typeof run.request === "object" ? run.request : {}) as Record<string, unknown>;
  return !usesMarketplacePrompt(agentsOf(request));
}

/** A number from a usage object, when it is one. */
function numberAt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * The bill a run's row stores: an agent's `usage.total_cost`, a swarm's `usage.billing_info.total_cost`
 * (as the billing ledger's view reads it in SQL); undefined before it has one.
 */
export function storedBill(usage: unknown): number | undefined {
  const u = (usage ?? {}) as { total_cost?: unknown; billing_info?: { total_cost?: unknown } };
  return numberAt(u.total_cost) ?? numberAt(u.billing_info?.total_cost);
}

/** The outcome of a run that has ended, from its final row. */
export function jobOutcome(
  run: Pick<Run, "status" | "usage" | "output" | "error" | "api_key_id" | "request">,
): JobOutcome {
  const tokens = numberAt((run.usage as { total_tokens?: unknown } | null)?.total_tokens);
  const cost = storedBill(run.usage);
  const output = outputIsShown(run)
    ? (batchSummary(run.output) ?? oneLine(lastText(run.output), OUTPUT_PREVIEW_CHARS))
    : undefined;
  return {
    status: run.status,
    ...(tokens !== undefined ? { tokens } : {}),
    ...(cost !== undefined ? { cost } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(run.status === "failed" ? { error: run.error?.message ?? "The run failed" } : {}),
  };
}

/** A failed job's log line of its run's outcome (its error is the job's failed reason). */
export function outcomeLogLine(outcome: Partial<JobOutcome>): string {
  return [
    `outcome status=${outcome.status}`,
    ...(outcome.tokens !== undefined ? [`tokens=${outcome.tokens}`] : []),
    ...(outcome.cost !== undefined ? [`cost=${outcome.cost}`] : []),
  ].join(" ");
}
