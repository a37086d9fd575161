import { config } from "../../shared/config";
import { OMITTED_SWARM_FIELDS, type SwarmRequest } from "../../shared/contracts/swarm-request";
import type { ReasoningAgentRun } from "../../shared/db/entities/run.entity";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import { formatOutput } from "../reasoning/output-format";
import { ReasoningRun } from "../reasoning/reasoning-run";
import { reasoningRunners } from "../reasoning/registry";
import { SwarmRun } from "../swarms/swarm-run";
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
      // The engine's view of the run: no request agents (the type's role agents are its own), no image.
      const engineRequest: SwarmRequest = {
        name: request.agent_name,
        description: request.description,
        agents: [],
        max_loops: request.max_loops,
        swarm_type: request.swarm_type,
        task: request.task,
        ...OMITTED_SWARM_FIELDS,
        stream: Boolean(request.stream),
        // A reasoning agent's roles are one agent's steps, not a team: no collaboration note.
        multi_agent_collab_prompt: false,
        heavy_swarm_question_agent_model_name: request.model_name,
        heavy_swarm_worker_model_name: request.model_name,
      };
      const swarm = new SwarmRun(
        engineRequest,
        [],
        request.task,
        request.swarm_type,
        { recorder, budget, usage, signal },
        events,
        config.swarmMaxParallel,
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
