import type { AgentCompletionRequest, AgentRunOutput } from "../../shared/contracts/agent-spec";
import { claimRun, completeRun, failRun, loadSteps } from "../../shared/db/run-store";
import { agentName, runAgent } from "../agents/agent-runner";
import { agentUsage } from "../agents/agent-usage";
import { StepRecorder } from "../agents/step-recorder";
import type { Handler } from "./handler";
import { isRunFailure, runErrorOf } from "./run-failure";

/** E5: runs one agent for a stored run and writes its output and usage to the run row. */
export const handleAgentRun: Handler<"agent-run"> = async ({ runId }, { ds, logger, signal }) => {
  const run = await claimRun(ds, runId);
  if (!run) return { runId }; // finished or cancelled already: a duplicate delivery
  const request = run.request as AgentCompletionRequest;
  const recorder = new StepRecorder(ds, runId, run.attempts > 1 ? await loadSteps(ds, runId) : []);
  try {
    const images = [...(request.img ? [request.img] : []), ...(request.imgs ?? [])];
    const result = await runAgent(request.agent_config, { task: request.task, history: request.history, images }, recorder, signal);
    const output: AgentRunOutput = { outputs: [{ role: result.agentName, content: result.content }] };
    await completeRun(ds, runId, output, agentUsage(result));
    logger.info({ runId, calls: result.llmCalls, replayed: recorder.replayed }, "agent run succeeded");
  } catch (err) {
    if (!isRunFailure(err)) throw err; // infrastructure trouble: let BullMQ retry the job
    await failRun(ds, runId, runErrorOf(err, agentName(request.agent_config)));
    logger.warn({ runId, err: err.message }, "agent run failed");
  }
  return { runId };
};
