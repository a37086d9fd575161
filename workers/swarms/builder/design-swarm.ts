import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { agentBrief } from "../../../shared/contracts/agent-tree";
import { swarmRuleProblems } from "../../../shared/swarms/swarm-rules";
import { agentName } from "../../agents/handoffs";
import { internalAgent } from "../internal-agent";
import { decide, withMaxTokens } from "../structured-decision";
import type { SwarmRun } from "../swarm-run";
import { concreteTypes, typeOptions } from "../types/chosen-type";
import {
  BUILD_TOOL,
  buildTool,
  builtRequest,
  generatedAgentSpec,
  readSpec,
  type GeneratedAgentSettings,
  type SwarmSpec,
} from "./swarm-spec";

/** The builder's role name: its turn and its calls appear under it (docs/swarm-types.md, "Output shapes"). */
export const BUILDER = "Builder";

/** What the Builder designs with besides the swarm's opening: its model, and the generated agents' settings. */
interface DesignOptions extends GeneratedAgentSettings {
  /** The Builder's own output limit (its decision call's `max_tokens`). */
  builderMaxTokens?: number;
  /** The name and description the client wants the swarm to have, shown to the Builder. */
  wanted?: { name?: string | null; description?: string | null };
}

/** A validated design: the spec as the Builder wrote it, its agents as full specs, and the request it runs as. */
export interface SwarmDesign {
  spec: SwarmSpec;
  agents: AgentSpec[];
}

/**
 * The Builder's design of a swarm for `swarm`'s opening (docs/auto-swarm-builder.md): one
 * structured decision whose swarm types are the concrete ones the catalog offers, checked for
 * shape (2–8 uniquely named agents, typed fields) and against the request rules the generated
 * swarm will run under (the type's agent count, AgentRearrange's flow…). An invalid answer gets
 * the repair call `decide` makes, quoting every problem; a second invalid one fails the run
 * (`DecisionError`, naming the Builder). The request's agents are hints: one kept under its name
 * keeps its settings. Used by the AutoSwarmBuilder swarm type and the auto swarm builder endpoint.
 */
export async function designSwarm(swarm: SwarmRun, options: DesignOptions): Promise<SwarmDesign> {
  const types = concreteTypes(swarm.request);
  const hints = new Map(swarm.agents.map((agent) => [agentName(agent), agent]));
  const builder = internalAgent(
    swarm,
    BUILDER,
    options.model,
    "You design swarms of AI agents: given a task, you choose how agents should work together and write each agent's role and system prompt.",
    "designing the swarm that will do the task",
  );
  const parts = [`Task:\n${swarm.opening}`];
  const { name, description } = options.wanted ?? {};
  if (name?.trim()) parts.push(`The swarm's name: ${name.trim()}`);
  if (description?.trim()) parts.push(`What the swarm is for:\n${description.trim()}`);
  if (swarm.agents.length) {
    const listed = swarm.agents.map((agent, i) => `- ${swarm.names[i]}: ${agentBrief(agent) ?? "(no description)"}`);
    parts.push(
      `Agents suggested by the request (hints: use, adapt or replace them; an agent you keep under the same name keeps its model and settings):\n${listed.join("\n")}`,
    );
  }
  parts.push(`Swarm types you can choose:\n${typeOptions(types)}`);
  parts.push(`Write the swarm with ${BUILD_TOOL}.`);

  const agentsOf = (spec: SwarmSpec) =>
    spec.agents.map((built) => generatedAgentSpec(built, options, hints.get(built.agent_name)));
  const validate = (value: unknown): string | null => {
    const { spec, problem } = readSpec(types, value);
    if (!spec) return problem!;
    const problems = swarmRuleProblems(builtRequest(swarm.request, spec, agentsOf(spec)));
    return problems.length ? problems.join("; ") : null;
  };
  const decision = await decide<unknown>(
    swarm,
    withMaxTokens(builder, options.builderMaxTokens),
    parts.join("\n\n"),
    buildTool(types),
    validate,
    "builder",
  );
  const spec = readSpec(types, decision).spec!;
  return { spec, agents: agentsOf(spec) };
}
