import type { DataSource } from "typeorm";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { everyAgent, mapAgentTree } from "../../shared/contracts/agent-tree";
import { findListedPrompts, type RunnablePrompt } from "../../shared/db/prompt-listing-store";
import { isUuid } from "../../shared/db/uuid";
import { BadRequestError } from "../../shared/errors";

/** The prompts one request names, by id (lower case). */
export type MarketplacePromptLookup = ReadonlyMap<string, RunnablePrompt>;

/** The agent's `marketplace_prompt_id`, trimmed; an empty one means none. */
function promptIdOf(spec: AgentSpec): string | null {
  return spec.marketplace_prompt_id?.trim() || null;
}

/** The distinct marketplace prompt ids the agents name, in first-seen order. */
export function marketplacePromptIds(specs: AgentSpec[]): string[] {
  return [...new Set(everyAgent(specs).flatMap(({ spec }) => promptIdOf(spec) ?? []))];
}

/** Loads every prompt the agents name, in one query (ids that are not UUIDs cannot name one). */
export async function lookupMarketplacePrompts(ds: DataSource, specs: AgentSpec[]): Promise<MarketplacePromptLookup> {
  const ids = marketplacePromptIds(specs).filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await findListedPrompts(ds, ids);
  return new Map(rows.map((row) => [row.id.toLowerCase(), row]));
}

/**
 * Why the caller may not use the prompt an id names, or null when it may. Approved prompts, free
 * or paid, are anyone's to use; a pending prompt only its owner's (to try it before review); a
 * rejected prompt nobody's. Another user's prompt that is not approved reads as unknown, so ids of
 * unpublished prompts cannot be probed.
 */
function problemWith(id: string, prompt: RunnablePrompt | undefined, userId: string): string | null {
  if (prompt?.status === "approved") return null;
  if (prompt && prompt.user_id === userId) {
    if (prompt.status === "pending") return null;
    return `marketplace_prompt_id '${id}' names a prompt that was rejected in review; it cannot be used`;
  }
  return `Unknown marketplace_prompt_id '${id}': no marketplace prompt with this id is available`;
}

/**
 * The agent with its marketplace prompt in place of `system_prompt` (which the hosted API then
 * ignores), handoffs included. A run's stored request is shown back to its caller (job reads,
 * `GET /v1/swarm/logs`), and a paid prompt's text must not be handed out that way: the text is
 * withheld from the stored request with the run's secrets (`withholdAgentSecrets`).
 */
function withPrompt(spec: AgentSpec, lookup: MarketplacePromptLookup): AgentSpec {
  return mapAgentTree(spec, (agent) => {
    const id = promptIdOf(agent);
    if (!id) return agent;
    const prompt = lookup.get(id.toLowerCase())!;
    return { ...agent, marketplace_prompt_id: prompt.id, system_prompt: prompt.prompt };
  });
}

/**
 * Applies the looked-up prompts to the agents of one request: 400 naming every id the caller may
 * not use (before any run exists), else the agents with their marketplace prompts in place.
 */
export function applyMarketplacePrompts(
  specs: AgentSpec[],
  lookup: MarketplacePromptLookup,
  userId: string,
): AgentSpec[] {
  const ids = marketplacePromptIds(specs);
  const problems = ids.flatMap((id) => problemWith(id, lookup.get(id.toLowerCase()), userId) ?? []);
  if (problems.length) throw new BadRequestError(problems.join("; "), {}, "MARKETPLACE_PROMPT_UNAVAILABLE");
  return ids.length ? specs.map((spec) => withPrompt(spec, lookup)) : specs;
}

/** Looks up and applies the marketplace prompts of one request's agents (agent and swarm completions, agent batches). */
export async function attachMarketplacePrompts(
  ds: DataSource,
  specs: AgentSpec[],
  userId: string,
): Promise<AgentSpec[]> {
  if (marketplacePromptIds(specs).length === 0) return specs;
  return applyMarketplacePrompts(specs, await lookupMarketplacePrompts(ds, specs), userId);
}
