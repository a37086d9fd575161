import type { ReasoningAgentRun } from "../../shared/db/entities/run.entity";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import { formatOutput } from "../reasoning/output-format";
import { ReasoningRun } from "../reasoning/reasoning-run";
import { reasoningRunners } from "../reasoning/registry";
import { workflowSwarm } from "../swarms/workflow-swarm";
import { swarmUsage } from "../swarms/swarm-usage";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/**
 * `POST /v1/reasoning-agent/completions`: runs the reasoning type on the swarm engine (its calls
 * are swarm turns: stored steps replayed on a retry, usage, budget, events), formats its turns in
 * the request's `output_type`, and prices it as a swarm.
 */
export const handleReasoningAgentRun: Handler<"reasoning-agent-run"> = ({ runId }, ctx) =>
  executeRun<ReasoningAgentRun>(runId, ctx, {
    kind: "reasoning_agent",
    async execute({ run, recorder, budget, usage, signal, events }) {
      const request = revealedRequest(run);
      const runner = reasoningRunners[request.swarm_type];
      // No request agents (the type's role agents are its own) and no image; the roles are one
      // agent's steps, not a team, so no collaboration note.
      const swarm = workflowSwarm(
        {
          type: request.swarm_type,
          name: request.agent_name,
          description: request.description,
          agents: [],
          max_loops: request.max_loops,
          task: request.task,
          stream: Boolean(request.stream),
          multi_agent_collab_prompt: false,
          model_name: request.model_name,
        },
        { recorder, budget, usage, signal },
        events,
      );
      const reasoning = new ReasoningRun(request, swarm);
      await runner.run(reasoning);
      return {
        output: {
          swarm_type: request.swarm_type,
          turns: reasoning.turns,
          output: formatOutput(reasoning.turns, request.output_type),
          number_of_agents: usage.agentCount,
        },
        usage: swarmUsage(usage, "standard", new Date()),
        log: { type: request.swarm_type, agents: usage.agentCount },
      };
    },
    usageSoFar: ({ usage }) => swarmUsage(usage, "standard", new Date()),
    failedAgent: (err) => (err as { agent?: string }).agent,
  });
