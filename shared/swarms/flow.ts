import { BadRequestError } from "../errors";

/**
 * An AgentRearrange flow: steps separated by `->`, agents of a step separated by `,` (they run in
 * parallel). An agent may appear in several steps.
 */
export type Flow = string[][];

/**
 * Parses a flow; throws a 400 with a readable message when it is malformed or names unknown agents
 * (the API refuses such a request; a worker meeting one fails the run instead of retrying it).
 */
export function parseFlow(flow: string, agentNames: string[]): Flow {
  const steps = flow.split("->").map((step) => step.split(",").map((name) => name.trim()));
  steps.forEach((step, i) => {
    if (step.length === 0 || step.some((name) => name === ""))
      throw new BadRequestError(`rearrange_flow step ${i + 1} is empty or has an empty agent name`);
  });
  const known = new Set(agentNames);
  const unknown = [...new Set(steps.flat().filter((name) => !known.has(name)))];
  if (unknown.length)
    throw new BadRequestError(
      `rearrange_flow names agents that are not in the swarm: ${unknown.join(", ")} (agents: ${agentNames.join(", ")})`,
    );
  return steps;
}
