import type { Run } from "../../db/entities/run.entity";
import type { StepSummary } from "../../db/run-step-store";
import { roundCost } from "../../llm/pricing";
import { plannedSteps } from "../../swarms/planned-steps";

/** One finished step of a running run, as `progress.turns` shows it. */
function presentTurn(step: StepSummary) {
  // MCP tools (`mcp:<name>`) and the built-in ones (`tool:web_scraper`): each an outbound call.
  const tool = step.role === "tool";
  return {
    agent: step.agent_name,
    type: tool ? "tool" : "llm",
    model: step.model,
    input_tokens: step.input_tokens,
    output_tokens: step.output_tokens,
    cost: roundCost(Number(step.cost)),
    finished_at: new Date(step.finished_at).toISOString(),
  };
}

/**
 * A queued or running run's `progress`: its finished steps from `run_steps` (so it survives Redis
 * losing the job), and the total when the run's schedule fixes it (see `plannedSteps`).
 */
export function presentProgress(run: Run, steps: StepSummary[]) {
  const total = plannedSteps(run.kind, run.request);
  return {
    steps_done: steps.length,
    steps_total: total === null ? null : Math.max(total, steps.length),
    turns: steps.map(presentTurn),
  };
}
