import type { ReasoningTypeName } from "../contracts/reasoning-request";

/** What one reasoning type is, as `GET /v1/reasoning-agent/types` and the API's defaults read it. */
interface ReasoningTypeRecord {
  /** What it does, in one line (docs/reasoning-agents.md defines its calls). */
  description: string;
  /** Other names the hosted API accepts for it. */
  aliases: readonly string[];
  /** The request fields that shape it besides `task`, `model_name`, `system_prompt` and `output_type`. */
  fields: readonly string[];
}

/** The reasoning types, in the order the hosted API lists them (docs/reasoning-agents.md). */
export const REASONING_CATALOG: Record<ReasoningTypeName, ReasoningTypeRecord> = {
  "reasoning-duo": {
    description:
      "A reasoner thinks the task through, then the main agent answers from the task and that reasoning; max_loops rounds, each building on the last.",
    aliases: ["reasoning-agent"],
    fields: ["max_loops"],
  },
  "self-consistency": {
    description:
      "num_samples independent answers generated in parallel, then an aggregator finds the answer most of them agree on.",
    aliases: ["consistency-agent"],
    fields: ["num_samples", "max_loops"],
  },
  ire: {
    description:
      "Iterative Reflective Expansion: proposes up to num_samples solution paths, simulates and scores each (in parallel), reflects on and revises the weak ones, keeps the most promising, max_loops times, then synthesises a solution.",
    aliases: ["ire-agent"],
    fields: ["num_samples", "max_loops"],
  },
  ReflexionAgent: {
    description:
      "Acts, evaluates its answer with a score, reflects on the evaluation and refines, for up to max_loops rounds, remembering its last memory_capacity reflections; answers with its best-scored response.",
    aliases: [],
    fields: ["max_loops", "memory_capacity"],
  },
  GKPAgent: {
    description:
      "Generated Knowledge Prompting: generates num_knowledge_items knowledge statements (asking once more for any missing, and saying so in the output when still short), answers from each one in parallel, then a coordinator gives the final answer from all of them.",
    aliases: [],
    fields: ["num_knowledge_items"],
  },
  AgentJudge: {
    description:
      "Evaluates the task's content (an output to judge) with strengths, weaknesses and a score; max_loops evaluations, each seeing the ones before it.",
    aliases: [],
    fields: ["max_loops"],
  },
};

/** Every name a client may send: canonical names and aliases, in the hosted API's order. */
export const REASONING_TYPE_NAMES = [
  "reasoning-duo",
  "self-consistency",
  "ire",
  "reasoning-agent",
  "consistency-agent",
  "ire-agent",
  "ReflexionAgent",
  "GKPAgent",
  "AgentJudge",
] as const;

/** The type a name runs: its canonical name for an alias, else the name itself. */
export function canonicalReasoningType(name: string): ReasoningTypeName | undefined {
  for (const [type, record] of Object.entries(REASONING_CATALOG) as [ReasoningTypeName, ReasoningTypeRecord][]) {
    if (type === name || record.aliases.includes(name)) return type;
  }
  return undefined;
}
