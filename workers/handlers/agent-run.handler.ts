import type { AgentCompletionRequest, AgentRunOutput } from "../../shared/contracts/agent-spec";
import { claimRun, completeRun, failRun, loadSteps } from "../../shared/db/run-store";
import { BadRequestError } from "../../shared/errors";
import { RunAbortedError } from "../../shared/llm/run-aborted";
import { RunEventWriter } from "../../shared/queues/run-events";
import { UsageCounter } from "../agents/agent-context";
import { agentName, runAgent } from "../agents/agent-runner";
import { agentUsage } from "../agents/agent-usage";
import { budgetLimits } from "../agents/budget-limits";
import { BudgetExceededError, RunBudget } from "../agents/run-budget";
import { StepRecorder } from "../agents/step-recorder";
import type { Handler } from "./handler";
import { isRunFailure, runErrorOf } from "./run-failure";
import { runSignal } from "./run-signal";

/** E5 (and each E3 item): runs one agent for a stored run and writes its output and usage to the row. */
export const handleAgentRun: Handler<"agent-run"> = async ({ runId }, { ds, logger, signal: shutdown, cancels, redis, announce }) => {
  const run = await claimRun(ds, runId);
  if (!run) return { runId }; // finished or cancelled already: a duplicate delivery
  const request = run.request as AgentCompletionRequest;
  const spec = request.agent_config;
  const name = agentName(spec);
  const budget = new RunBudget(budgetLimits(request.budget, run.started_at));
  const cancel = cancels.track(runId);
  const signal = runSignal(cancel, shutdown, budget);
  const events = request.stream ? new RunEventWriter(redis, runId) : null;
  const usage = new UsageCounter();
  const recorder = StepRecorder.forRun(ds, runId, run.attempts > 1 ? await loadSteps(ds, runId) : []);
  try {
    events?.emit({ type: "start" });
    if (!request.task?.trim()) throw new BadRequestError("No task given for this agent");
    const images = [...(request.img ? [request.img] : []), ...(request.imgs ?? [])];
    const result = await runAgent(
      spec,
      { task: request.task, history: request.history, images, toolsEnabled: request.tools_enabled },
      { recorder: recorder.lane("agent"), budget, usage, signal, depth: 0, onText: events ? (_agent, text) => events.emit({ type: "chunk", content: text }) : undefined },
    );
    const output: AgentRunOutput = { outputs: [{ role: result.agentName, content: result.content }] };
    const usageReport = agentUsage(usage);
    // The last step's insert and the run's completion go to Postgres side by side.
    const [, finalRow] = await Promise.all([recorder.flush(), completeRun(ds, runId, output, usageReport)]);
    announce(finalRow);
    events?.emit({ type: "finish", usage: usageReport });
    logger.info({ runId, calls: result.llmCalls, replayed: recorder.replayed }, "agent run succeeded");
  } catch (caught) {
    let err = caught;
    // Tool calls rethrow the signal's own reason, LLM calls a RunAbortedError: either way the signal tells.
    if (err instanceof RunAbortedError || signal.aborted) {
      if (cancel.aborted) {
        events?.emit({ type: "error", error: "The run was cancelled" });
        return { runId }; // the row says cancelled already
      }
      if (shutdown?.aborted) throw err; // forced shutdown: the job goes back to the queue
      err = new BudgetExceededError("The run reached its time limit");
    }
    if (!isRunFailure(err)) throw err; // infrastructure trouble: let BullMQ retry the job
    await recorder.flush().catch(() => undefined); // what did finish is worth keeping for the record
    announce(await failRun(ds, runId, runErrorOf(err, name), agentUsage(usage)));
    events?.emit({ type: "error", error: err.message });
    logger.warn({ runId, err: err.message }, "agent run failed");
  } finally {
    cancels.release(runId);
    await events?.flush();
  }
  return { runId };
};
