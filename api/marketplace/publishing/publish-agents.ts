import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { everyAgent, mapAgentTree } from "../../../shared/contracts/agent-tree";
import { AppError, BadRequestError } from "../../../shared/errors";
import type { ApiDeps } from "../../deps";
import { PlatformError } from "../../platform-error";
import { checkPublication, type AgentPublication } from "./agent-publication";
import { insertPreparedPrompts, preparePrompt, type PreparedPrompt } from "../prompts/create-prompt";
import { contentHash, duplicateOf } from "../prompts/duplicates";
import { findDuplicateId, isDuplicateViolation } from "../../../shared/db/prompt-store";

/** Called with the ids of the prompts a request published (or found already published), in agent order. */
export type OnPublished = (promptIds: string[]) => void;

/**
 * A marketplace refusal in the `/v1` error shape (`detail` a string, a `/v1` code, no platform
 * fields): a daily limit stays 429, an unavailable price or content review stays 503, and the
 * content rules' 400s and 403s (quality, safety, the seller's trust) are a 400 naming the agent.
 */
function asV1Error(err: unknown, who: string | null): unknown {
  if (!(err instanceof PlatformError)) return err;
  if (err.status === 429) {
    const resetTime = typeof err.extra.resetTime === "string" ? { reset_time: err.extra.resetTime } : {};
    return new AppError(429, "DAILY_LIMIT_EXCEEDED", `Nothing was published or run: ${err.message}`, resetTime);
  }
  if (err.status >= 500)
    return new AppError(err.status, err.code, `${who ?? "An agent"} could not be published: ${err.message}`);
  return new BadRequestError(
    `${who ?? "An agent"} cannot be published: ${err.message}`,
    {},
    "INVALID_MARKETPLACE_PUBLICATION",
  );
}

/** A distinct text to publish, once prompt creation's checks passed. */
interface ReadyPrompt {
  hash: string;
  prepared: PreparedPrompt;
}

/**
 * Stores the prepared prompts, all or none (one transaction, each counted against today's limit).
 * When another request stored one of the texts meanwhile, that prompt is reused and the rest
 * stored again. Adds the ids to `ids`, by content hash.
 */
async function storeAll(
  deps: ApiDeps,
  userId: string,
  ready: ReadyPrompt[],
  now: Date,
  ids: Map<string, string>,
): Promise<void> {
  let left = ready;
  while (left.length) {
    try {
      const rows = await insertPreparedPrompts(
        deps,
        deps.platform.dailyLimits,
        userId,
        left.map((r) => r.prepared),
        now,
      );
      rows.forEach((row, i) => ids.set(left[i].hash, row.id));
      return;
    } catch (err) {
      if (!isDuplicateViolation(err)) throw asV1Error(err, null);
      const existing = await Promise.all(left.map((r) => findDuplicateId(deps.ds, userId, r.hash)));
      if (existing.every((id) => id === null)) throw err;
      existing.forEach((id, i) => id && ids.set(left[i].hash, id));
      left = left.filter((_, i) => !existing[i]);
    }
  }
}

/**
 * Prompt creation (`POST /api/add-prompt`) for the agents' prompts, one prompt per distinct text (agents of a request
 * with the same text share one): duplicate detection, today's limit, content validation and the
 * price for each (in parallel), then the counted inserts together. A text the caller has published
 * before reuses that prompt, without an error and without counting. Returns the ids by content hash.
 */
async function publishAll(
  deps: ApiDeps,
  userId: string,
  publications: AgentPublication[],
): Promise<Map<string, string>> {
  const now = new Date();
  const distinct = new Map<string, AgentPublication>();
  for (const p of publications) {
    const hash = contentHash(p.fields.prompt);
    if (!distinct.has(hash)) distinct.set(hash, p);
  }
  const entries = [...distinct];
  const outcomes = await Promise.allSettled(
    entries.map(([, p]) => preparePrompt(deps, deps.platform, userId, p.fields, { source: "agent", now })),
  );
  const ids = new Map<string, string>();
  const ready: ReadyPrompt[] = [];
  // The first refusal in agent order decides the answer.
  for (const [i, outcome] of outcomes.entries()) {
    const [hash, publication] = entries[i];
    if (outcome.status === "fulfilled") {
      ready.push({ hash, prepared: outcome.value });
      continue;
    }
    const existingId = duplicateOf(outcome.reason);
    if (!existingId) throw asV1Error(outcome.reason, publication.who);
    ids.set(hash, existingId);
  }
  await storeAll(deps, userId, ready, now, ids);
  return ids;
}

/** The agent with the id of the prompt it was published as, handoffs included. */
function withPublishedIds(spec: AgentSpec, ids: Map<AgentSpec, string>): AgentSpec {
  return mapAgentTree(spec, (agent) => (ids.has(agent) ? { ...agent, published_prompt_id: ids.get(agent) } : agent));
}

/**
 * Publishes the system prompt of every agent with `publish_to_marketplace` (handoffs included) as
 * a marketplace prompt of the caller's, pending review, by prompt creation's rules, at request acceptance: first
 * every agent's fields are checked, so a bad one is a 400 naming it before anything is stored or
 * run; then prompt creation's checks and the counted store (see `publishAll`), all or nothing. Returns the
 * agents, each publishing one carrying `published_prompt_id` (kept with the run's request), and
 * the distinct prompt ids in agent order.
 */
export async function publishAgentPrompts(
  deps: ApiDeps,
  userId: string,
  specs: AgentSpec[],
  where?: (i: number) => string,
  admission?: Promise<void>,
): Promise<{ specs: AgentSpec[]; promptIds: string[] }> {
  const publishing = everyAgent(specs, where).filter(({ spec }) => spec.publish_to_marketplace);
  if (publishing.length === 0) return { specs, promptIds: [] };
  const checked = publishing.map(({ spec, where: at }) => checkPublication(spec, at));
  const problems = checked.flatMap((c) => ("problems" in c ? c.problems : []));
  if (problems.length) throw new BadRequestError(problems.join("; "), {}, "INVALID_MARKETPLACE_PUBLICATION");
  const publications = checked.map((c) => (c as { publication: AgentPublication }).publication);
  await admission; // publishing stores prompts and may score them with an LLM: only for an admitted request
  const byHash = await publishAll(deps, userId, publications);
  const ids = new Map(publications.map((p) => [p.spec, byHash.get(contentHash(p.fields.prompt))!]));
  return { specs: specs.map((spec) => withPublishedIds(spec, ids)), promptIds: [...new Set(ids.values())] };
}
