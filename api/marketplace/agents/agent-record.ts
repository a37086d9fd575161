import type { PromptRow, Requirement } from "../../../shared/db/entities/prompt.entity";
import type { FieldProblem } from "../../platform-error";
import { crossFieldProblems, toPromptRecord, type PromptFields, type PromptRecord } from "../prompts/prompt-record";

/** An agent listing's body after validation (an edit gives any subset of it, with `id`). */
export type AgentFields = Omit<
  PromptFields,
  "prompt" | "tokenized_on" | "ticker" | "creator_wallet" | "private_key" | "requirements"
> & { agent: string; requirements: Requirement[] };

/** The listing fields an agent's body stands for: its definition is the listing's text; agents are never tokenized here. */
export function agentAsListing(fields: AgentFields): PromptFields;
export function agentAsListing(fields: Partial<AgentFields>): Partial<PromptFields>;
export function agentAsListing(fields: Partial<AgentFields>): Partial<PromptFields> {
  const { agent, ...rest } = fields;
  return agent === undefined ? rest : { ...rest, prompt: agent };
}

/** The rules of agent creation that join fields: a price above 0 when not free (agents have no token fields here). */
export function agentCrossFieldProblems(record: Partial<AgentFields>): FieldProblem[] {
  return crossFieldProblems({ is_free: record.is_free, price_usd: record.price_usd });
}

/** The platform API's Agent record: a listing's record with `agent` for the text, and the agent's own fields. */
export type AgentRecord = Omit<PromptRecord, "prompt" | "tokenized_on"> & {
  agent: string;
  language: string | null;
  requirements: Requirement[];
  agent_config: Record<string, unknown> | null;
};

/**
 * A stored agent as the platform API shows it. As for a paid prompt, a paid agent's definition (its text and its
 * `agent_config`, which holds its system prompt) is what buyers pay for: only its owner and moderators read it.
 */
export function toAgentRecord(row: PromptRow, viewerId: string | null, moderator = false): AgentRecord {
  const { prompt, tokenized_on: _tokenized, ...record } = toPromptRecord(row, viewerId, moderator);
  const mayRead = row.is_free || row.user_id === viewerId || moderator;
  return {
    ...record,
    agent: prompt,
    language: row.language,
    requirements: row.requirements,
    agent_config: mayRead ? row.agent_config : null,
  };
}
