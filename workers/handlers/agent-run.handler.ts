import type { AgentRunOutput } from "../../shared/contracts/agent-spec";
import type { AgentRun } from "../../shared/db/entities/run.entity";
import { BadRequestError } from "../../shared/errors";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import { agentName, runAgent } from "../agents/agent-runner";
import { agentUsage } from "../agents/agent-usage";
import { incur } from "../agents/run-charges";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/** An agent completion (and each agent batch item): runs one agent for a stored run and writes its output and usage to the row. */
export const handleAgentRun: Handler<"agent-run"> = ({ runId }, ctx) =>
  executeRun<AgentRun>(runId, ctx, {
    kind: "agent",
    async execute({ run, recorder, budget, usage, signal, events }) {
      const request = revealedRequest(run);
      if (!request.task?.trim()) throw new BadRequestError("No task given for this agent");
      const images = [...(request.img ? [request.img] : []), ...(request.imgs ?? [])];
      const name = agentName(request.agent_config);
      recorder.outcomes.expect([name]);
      // The run's own agent is billed whether or not it gets to call: its budget counts that first.
      await incur({ budget, usage, recorder }, { kind: "run_agent", agent: name });
      recorder.outcomes.started(name);
      const result = await runAgent(
        request.agent_config,
        { task: request.task, history: request.history, images, toolsEnabled: request.tools_enabled },
        {
          recorder: recorder.lane("agent"),
          budget,
          usage,
          signal,
          depth: 0,
          onText: events ? (_agent, text) => events.emit({ type: "chunk", content: text }) : undefined,
        },
      );
      recorder.outcomes.finished(name, result.content);
      const output: AgentRunOutput = { outputs: [{ role: result.agentName, content: result.content }] };
      return { output, usage: agentUsage(usage), log: { calls: result.llmCalls } };
    },
    usageSoFar: ({ usage }) => agentUsage(usage),
    failedAgent: (_err, { run }) => agentName(run.request.agent_config),
    windDown({ run, recorder }) {
      const name = agentName(run.request.agent_config);
      const answer = recorder.outcomes.lastAnswer(name);
      return { outputs: answer === null ? [] : [{ role: name, content: answer }] };
    },
  });
