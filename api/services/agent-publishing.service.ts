import type { DataSource } from "typeorm";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { everyAgent, mapAgentTree } from "../../shared/contracts/agent-tree";
import { BadRequestError } from "../../shared/errors";
import { createAgentPrompt, type AgentPromptDraft } from "./agent-prompt-store";

/** Called with the ids of the prompts a request published (or found already published), in agent order. */
export type OnPublished = (promptIds: string[]) => void;

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/**
 * The marketplace prompt an agent with `publish_to_marketplace` stands for, by the rules E7 puts
 * on a new prompt: a name of at least 2 characters (`agent_name`), a prompt of at least 5
 * (`system_prompt`), at least one use case `{title, description}`, tags of at least 2 characters
 * (joined with commas), and a price above 0 when it is not free. An agent whose prompt comes
 * from `marketplace_prompt_id` is someone's published prompt already and cannot be published again.
 */
function draftOf(spec: AgentSpec, where: string): AgentPromptDraft | string[] {
  const problems: string[] = [];
  const who = `${where} (${text(spec.agent_name) || "unnamed"})`;
  if (spec.marketplace_prompt_id) problems.push(`${who}: an agent using marketplace_prompt_id cannot be published again`);
  const name = text(spec.agent_name);
  if (name.length < 2) problems.push(`${who}: agent_name of at least 2 characters is required to publish`);
  const prompt = text(spec.system_prompt);
  if (!spec.marketplace_prompt_id && prompt.length < 5) problems.push(`${who}: system_prompt of at least 5 characters is required to publish`);
  const useCases = (spec.use_cases ?? []).map((u) => ({ title: text(u.title), description: typeof u.description === "string" ? u.description : null }));
  if (useCases.length === 0) problems.push(`${who}: at least one use case is required to publish`);
  if (useCases.some((u) => !u.title || u.description === null)) problems.push(`${who}: every use case needs a title and a description (strings)`);
  const tags = (spec.tags ?? []).map(text).filter(Boolean).join(",");
  if (tags.length < 2) problems.push(`${who}: tags (at least 2 characters in all) are required to publish`);
  if (!spec.is_free && !(typeof spec.price_usd === "number" && spec.price_usd > 0)) problems.push(`${who}: price_usd above 0 is required when is_free is false`);
  if (problems.length) return problems;
  return {
    name,
    prompt,
    description: text(spec.description) || null,
    useCases: useCases as { title: string; description: string }[],
    tags,
    category: text(spec.category) || null,
    isFree: spec.is_free,
    priceUsd: spec.is_free ? null : spec.price_usd!,
  };
}

/** The agent with the id of the prompt it was published as, handoffs included. */
function withPublishedIds(spec: AgentSpec, ids: Map<AgentSpec, string>): AgentSpec {
  return mapAgentTree(spec, (agent) => (ids.has(agent) ? { ...agent, published_prompt_id: ids.get(agent) } : agent));
}

/**
 * Publishes the system prompt of every agent with `publish_to_marketplace` (handoffs included) as
 * a marketplace prompt of the caller's, at request acceptance: first every agent is checked, so a
 * bad one is a 400 naming it before anything is stored or run; then each prompt is stored, pending
 * review. Publishing a text the caller has published before reuses that prompt's id, without an
 * error. Returns the agents, each publishing one carrying `published_prompt_id` (kept with the run's
 * request), and the distinct prompt ids in agent order.
 */
export async function publishAgentPrompts(
  ds: DataSource,
  userId: string,
  specs: AgentSpec[],
  where?: (i: number) => string,
): Promise<{ specs: AgentSpec[]; promptIds: string[] }> {
  const publishing = everyAgent(specs, where).filter(({ spec }) => spec.publish_to_marketplace);
  if (publishing.length === 0) return { specs, promptIds: [] };
  const drafts = publishing.map(({ spec, where: at }) => ({ spec, draft: draftOf(spec, at) }));
  const problems = drafts.flatMap(({ draft }) => (Array.isArray(draft) ? draft : []));
  if (problems.length) throw new BadRequestError(problems.join("; "), {}, "INVALID_MARKETPLACE_PUBLICATION");
  const ids = new Map<AgentSpec, string>();
  // One at a time, so two agents of a request with the same prompt share one record.
  for (const { spec, draft } of drafts) ids.set(spec, await createAgentPrompt(ds, userId, draft as AgentPromptDraft));
  return { specs: specs.map((spec) => withPublishedIds(spec, ids)), promptIds: [...new Set(ids.values())] };
}
