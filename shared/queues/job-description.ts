import type { AgentSpec } from "../contracts/agent-spec";
import { agentName } from "../contracts/agent-tree";
import type { RunKind } from "../db/entities/run.entity";

/** How many characters of the task an operator sees. */
const TASK_PREVIEW_CHARS = 80;
/** At most this many agent names (and models) are listed; a longer list says how many more. */
const MAX_LISTED = 12;

/**
 * What Bull Board shows of a run's job besides its `runId`: display only. Workers read nothing
 * but the payload's ids (anyone with Bull Board access can edit job data), and every field comes
 * from the run's stored request, whose secrets are already withheld.
 */
export interface JobDescription {
  kind: RunKind;
  swarmType?: string;
  agents?: string[];
  models?: string[];
  /** Batch parents: how many items. */
  items?: number;
  /** The user the run is for. */
  account: string;
  /**
   * The API key's id, as the logs (`keyId`), `npm run apikey`, the API-keys page and `GET /v1/usage`
   * (`key_id`) name it: never the key; null for the service's own runs.
   */
  keyId: string | null;
  /** The key's tier: the account's weight in fair dispatch and in the worker's LLM slots. */
  tier?: string;
  /** The start of the task, one line. */
  task?: string;
}

/** The run a job is described from: its kind, stored request (secrets withheld) and owner. */
export interface DescribedRun {
  kind: RunKind;
  request: unknown;
  owner: { userId: string; apiKeyId: string | null; tier?: string };
}

function listed(values: string[]): string[] {
  const unique = [...new Set(values)];
  return unique.length <= MAX_LISTED
    ? unique
    : [...unique.slice(0, MAX_LISTED), `(+${unique.length - MAX_LISTED} more)`];
}

/** The start of a text, on one line: at most `maxChars` characters, an ellipsis ending one that was cut. */
export function oneLine(text: unknown, maxChars: number): string | undefined {
  if (typeof text !== "string") return undefined;
  // Only as much as is shown is rewritten (a run's output can be long, and it is read for every run).
  const start = text.trimStart();
  const head = start.length > maxChars ? start.slice(0, maxChars + 1) : start;
  const line = head.replace(/\s+/g, " ").trimEnd();
  if (!line) return undefined;
  return line.length <= maxChars && head === start ? line : `${line.slice(0, maxChars - 1)}…`;
}

/** The agents a stored request names at its top level (a swarm's, or an agent run's one). */
export function agentsOf(request: Record<string, unknown>): AgentSpec[] {
  if (Array.isArray(request.agents)) return request.agents as AgentSpec[];
  const single = request.agent_config as AgentSpec | undefined;
  return single && typeof single === "object" ? [single] : [];
}

function taskOf(request: Record<string, unknown>): unknown {
  if (typeof request.task === "string" && request.task.trim()) return request.task;
  const tasks = request.tasks;
  if (Array.isArray(tasks) && typeof tasks[0] === "string")
    return tasks.length > 1 ? `[${tasks.length} tasks] ${tasks[0]}` : tasks[0];
  return undefined;
}

/**
 * The description of a run's job. A run made on the service's own behalf (no key, e.g. a
 * marketplace listing's content review) shows no task: its task is a seller's listing, prompt
 * text included.
 */
export function describeJob(run: DescribedRun): JobDescription {
  const request = (run.request && typeof run.request === "object" ? run.request : {}) as Record<string, unknown>;
  const agents = agentsOf(request);
  const models = agents.map((a) => a.model_name).filter((m): m is string => typeof m === "string" && m !== "");
  const task = run.owner.apiKeyId === null ? undefined : oneLine(taskOf(request), TASK_PREVIEW_CHARS);
  const items = typeof request.total_requests === "number" ? request.total_requests : undefined;
  return {
    kind: run.kind,
    ...(typeof request.swarm_type === "string" ? { swarmType: request.swarm_type } : {}),
    ...(agents.length ? { agents: listed(agents.map(agentName)) } : {}),
    ...(models.length ? { models: listed(models) } : {}),
    ...(items !== undefined ? { items } : {}),
    account: run.owner.userId,
    keyId: run.owner.apiKeyId,
    ...(run.owner.tier ? { tier: run.owner.tier } : {}),
    ...(task ? { task } : {}),
  };
}

/** Bull Board's name for a job: its job name, then what it runs (the BullMQ name itself stays the handler's). */
export function describedName(name: string, data: unknown): string {
  const about = (data ?? {}) as Partial<JobDescription>;
  const what = about.swarmType ?? (about.items !== undefined ? `${about.items} items` : undefined);
  const agents = Array.isArray(about.agents) ? about.agents.join(", ") : undefined;
  return [name, what, agents].filter(Boolean).join(" · ");
}
