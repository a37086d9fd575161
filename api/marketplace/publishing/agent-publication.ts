import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { addPromptSchema } from "../../schemas/add-prompt.schema";
import { crossFieldProblems, type PromptFields } from "../prompts/prompt-record";

/** An agent to publish, checked: prompt creation's fields for its prompt, and how messages name it. */
export interface AgentPublication {
  spec: AgentSpec;
  /** Where the agent sits in the request and its name, e.g. `agents[1] (Writer)`. */
  who: string;
  fields: PromptFields;
}

/** Prompt creation's field names as an agent spec spells them (the others are spelled alike). */
const AGENT_FIELDS: Record<string, string> = { name: "agent_name", prompt: "system_prompt", useCases: "use_cases" };

/** A prompt creation path (`useCases.0.title`) as the agent's field (`use_cases[0].title`). */
function agentPath(path: (string | number)[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${AGENT_FIELDS[part] ?? part}`))
    .join("");
}

/** The agent's tags as prompt creation takes them: one comma-separated string; none when the agent has none. */
function tagsOf(spec: AgentSpec): string | undefined {
  const tags = (spec.tags ?? []).map((t) => t.trim()).filter(Boolean);
  return tags.length ? tags.join(",") : undefined;
}

/**
 * The `POST /api/add-prompt` body an agent publishes: `agent_name` as the name, `system_prompt` as the prompt, its
 * description, use cases, tags, category and price, and no status: it waits for review like any
 * prompt (see review.ts). A free agent's `price_usd` is no price at all (prompt creation would refuse a 0 there).
 */
function promptBodyOf(spec: AgentSpec): Record<string, unknown> {
  return {
    name: spec.agent_name ?? undefined,
    prompt: spec.system_prompt ?? undefined,
    description: spec.description ?? null,
    useCases: spec.use_cases ?? undefined,
    tags: tagsOf(spec),
    category: spec.category ?? null,
    is_free: spec.is_free,
    price_usd: spec.is_free ? null : (spec.price_usd ?? null),
  };
}

/**
 * Holds an agent with `publish_to_marketplace` to prompt creation's field rules (the same schema and joined
 * rules as `POST /api/add-prompt`), naming the agent's own fields in every problem. An agent whose
 * prompt comes from `marketplace_prompt_id` is someone's published prompt already and cannot be
 * published again.
 */
export function checkPublication(
  spec: AgentSpec,
  where: string,
): { publication: AgentPublication } | { problems: string[] } {
  const who = `${where} (${spec.agent_name?.trim() || "unnamed"})`;
  if (spec.marketplace_prompt_id)
    return { problems: [`${who}: an agent using marketplace_prompt_id cannot be published again`] };
  const { value, error } = addPromptSchema.validate(promptBodyOf(spec), {
    abortEarly: false,
    stripUnknown: true,
    convert: true,
    errors: { label: false },
  });
  const problems = (error?.details ?? []).map((d) => ({
    path: agentPath(d.path),
    message: `${agentPath(d.path)} ${d.message}`,
  }));
  const reported = new Set(problems.map((p) => p.path));
  if (value) problems.push(...crossFieldProblems(value).filter((p) => !reported.has(p.path)));
  if (problems.length) return { problems: problems.map((p) => `${who}: ${p.message}`) };
  return { publication: { spec, who, fields: value as PromptFields } };
}
