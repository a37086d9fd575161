import { internalAgent, internalAgentModel } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { SwarmRun } from "../swarm-run";

/** The internal agent that takes MALT's majority vote (docs/swarm-types.md, "Output shapes"). */
export const CONSENSUS = "Consensus";
const TOOL_NAME = "choose_refinement";

/** The vote over a loop's refinements: the one chosen, those that reach the same answer, and why. */
export interface RefinementVote {
  /** 1-based number of the refinement that is the loop's answer. */
  chosen: number;
  /** 1-based numbers of the refinements that reach the same answer as the chosen one (it included). */
  agreeing: number[];
  rationale: string;
}

/** The vote tool: refinement numbers are an enum of the real ones, so the model cannot name another. */
function voteTool(samples: number): DecisionTool {
  const numbers = Array.from({ length: samples }, (_, i) => i + 1);
  return {
    name: TOOL_NAME,
    description:
      "Group the refinements that reach the same answer, and choose the best refinement of the largest group as the answer.",
    parameters: {
      type: "object",
      properties: {
        chosen: { type: "integer", enum: numbers, description: "The number of the refinement that is the answer" },
        agreeing: {
          type: "array",
          items: { type: "integer", enum: numbers },
          uniqueItems: true,
          description: "The numbers of every refinement that reaches the same answer as the chosen one, it included",
        },
        rationale: { type: "string", description: "Why this answer: where the refinements agree and differ" },
      },
      required: ["chosen", "agreeing", "rationale"],
      additionalProperties: false,
    },
  };
}

const isSample = (samples: number, value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= samples;

/** What is wrong with a vote over `samples` refinements, or null (the `decide` validator). */
export function voteProblem(samples: number, value: unknown): string | null {
  if (!isJsonObject(value)) return "the vote must be an object with chosen, agreeing and rationale";
  const problems: string[] = [];
  if (!isSample(samples, value.chosen)) problems.push(`'chosen' must be a refinement number from 1 to ${samples}`);
  if (!Array.isArray(value.agreeing) || !value.agreeing.every((n) => isSample(samples, n)))
    problems.push(`'agreeing' must list refinement numbers from 1 to ${samples}`);
  if (typeof value.rationale !== "string") problems.push("'rationale' must be a string");
  return problems.length ? problems.join("; ") : null;
}

/**
 * Asks the internal Consensus agent (the first agent's model) which refinement is the answer, as
 * the MALT paper takes a majority vote over its refined answers. `agreeing` is returned sorted,
 * without repeats, and always holds the chosen refinement.
 */
export async function voteOnRefinements(
  swarm: SwarmRun,
  task: string,
  refinements: string[],
  lane: string,
): Promise<RefinementVote> {
  const samples = refinements.length;
  const prompt =
    "You take the majority vote of a verification team. Several refinements of one answer were written independently; group those that reach the same final answer, and choose the best-argued refinement of the largest group. When they all differ, choose the one that is most correct.";
  const consensus = internalAgent(
    swarm,
    CONSENSUS,
    internalAgentModel(swarm, "consensus"),
    prompt,
    `choosing the answer among ${samples} refinements by majority`,
  );
  const tool = voteTool(samples);
  const input = [
    `Task:\n${task}`,
    ...refinements.map((text, i) => `Refinement ${i + 1}:\n${text}`),
    `Vote with ${tool.name}.`,
  ].join("\n\n");
  const vote = await decide<RefinementVote>(swarm, consensus, input, tool, (v) => voteProblem(samples, v), lane);
  const agreeing = [...new Set([vote.chosen, ...vote.agreeing])].sort((a, b) => a - b);
  return { chosen: vote.chosen, agreeing, rationale: vote.rationale.trim() };
}

/** The Consensus turn's readable content: the choice, who agrees, why, then the chosen answer itself. */
export function renderVote(vote: RefinementVote, samples: number, answer: string): string {
  const others = vote.agreeing.filter((n) => n !== vote.chosen);
  const agreement = others.length
    ? `${vote.agreeing.length} of ${samples} refinements agree (${vote.agreeing.join(", ")})`
    : `no other refinement of ${samples} agrees`;
  return [
    `Chosen: refinement ${vote.chosen}; ${agreement}.`,
    vote.rationale && `Rationale: ${vote.rationale}`,
    `Answer:\n${answer}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}
