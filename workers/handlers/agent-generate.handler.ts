import type { AgentGenerateRun } from "../../shared/db/entities/run.entity";
import { designAgent } from "../swarms/builder/design-agent";
import { swarmUsage } from "../swarms/swarm-usage";
import { builderSwarm } from "./builder-swarm";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/** `POST /v1/agents/auto-generate`: the Builder designs one agent for the task (validated, repaired once). */
export const handleAgentGenerate: Handler<"agent-generate"> = ({ runId }, ctx) =>
  executeRun<AgentGenerateRun>(runId, ctx, {
    kind: "agent_generate",
    async execute({ run, recorder, budget, usage, signal }) {
      const request = run.request;
      const swarm = builderSwarm(request, { recorder, budget, usage, signal });
      const agent = await designAgent(swarm, { model: request.model_name, maxTokens: request.max_tokens });
      return {
        output: { agent_config: agent },
        usage: swarmUsage(usage, run.service_tier, new Date()),
        log: { agent: agent.agent_name },
      };
    },
    usageSoFar: ({ run, usage }) => swarmUsage(usage, run.service_tier, new Date()),
    failedAgent: (err) => (err as { agent?: string }).agent,
  });
