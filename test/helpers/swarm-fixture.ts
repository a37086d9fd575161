import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { UsageCounter } from "../../workers/agents/agent-context";
import { AgentOutcomes } from "../../workers/agents/agent-outcomes";
import { RunBudget } from "../../workers/agents/run-budget";
import type { DataSource } from "typeorm";
import { StepRecorder, type StepMeta, type StepOutcome } from "../../workers/agents/step-recorder";
import { openingText } from "../../shared/swarms/opening";
import type { SwarmTypeRunner } from "../../workers/swarms/swarm-type-runner";
import { SwarmRun } from "../../workers/swarms/swarm-run";

/** Answers a decision attempt (by lane and attempt number) instead of the LLM, or not (undefined). */
export type CannedDecisions = (lane: string, attempt: number) => StepOutcome | undefined;

/** A forced tool call as a recorded step would hold it. */
export function cannedCall(tool: string, args: unknown): StepOutcome {
  return {
    output: {
      content: null,
      tool_calls: [
        { id: `call_canned_${tool}`, type: "function", function: { name: tool, arguments: JSON.stringify(args) } },
      ],
    },
    inputTokens: 1,
    outputTokens: 1,
    cost: 0,
  };
}

/**
 * An in-memory recorder that runs every step (real LLM calls to the simulator), except decision
 * attempts that `canned` answers: the way to hand a swarm a decision the simulator would never make.
 */
export function memoryRecorder(canned: CannedDecisions = () => undefined) {
  const steps: { lane: string; meta: StepMeta }[] = [];
  const outcomes = new AgentOutcomes();
  const lane = (path: string): StepRecorder => {
    let next = 0;
    return {
      lane: (name: string) => lane(path ? `${path}/${name}` : name),
      outcomes,
      nextKey: () => `${path}#${next}`,
      charge: () => ({ replayed: false }),
      madeEarlier: () => false,
      willReplay: () => false,
      async step(meta: StepMeta, call: () => Promise<StepOutcome>) {
        next++;
        steps.push({ lane: path, meta });
        const input = meta.input as { kind?: string; attempt?: number };
        const fake = input?.kind === "decision" ? canned(path, input.attempt ?? 0) : undefined;
        return { ...(fake ?? (await call())), replayed: false };
      },
    } as unknown as StepRecorder;
  };
  return { recorder: lane(""), steps };
}

/**
 * A swarm run in this process, on the in-memory recorder, with generous limits. `opening` defaults
 * to the request's task; `parallel` is the swarm's concurrency cap.
 */
export function inProcessSwarm(
  swarmType: string,
  request: Omit<Partial<SwarmRequest>, "agents"> & { agents: Record<string, unknown>[] },
  canned?: CannedDecisions,
  options: { opening?: string; parallel?: number } = {},
) {
  const { recorder, steps } = memoryRecorder(canned);
  const specs = request.agents.map((a) => ({
    model_name: "gpt-4.1",
    role: "worker",
    max_tokens: 1024,
    max_loops: 1,
    ...a,
  }));
  const full = { max_loops: 1, swarm_type: swarmType, ...request, agents: specs } as SwarmRequest;
  const ctx = {
    recorder,
    budget: new RunBudget({ maxTokens: 1e7, maxCost: 100, deadline: Date.now() + 60_000 }),
    usage: new UsageCounter(),
    signal: new AbortController().signal,
  };
  const swarm = new SwarmRun(
    full,
    specs as any,
    options.opening ?? full.task ?? "",
    swarmType,
    ctx,
    null,
    options.parallel ?? 4,
  );
  return { swarm, ctx, steps };
}

/**
 * Runs a stored swarm run's type again on its stored steps (as a retried job would): returns the
 * steps, the recorder (its `replayed` count) and the output the replay produced.
 */
export async function replayStoredRun(ds: DataSource, jobId: string, type: SwarmTypeRunner) {
  const [run] = await ds.query("SELECT request FROM runs WHERE id = $1", [jobId]);
  const steps = await ds.query("SELECT * FROM run_steps WHERE run_id = $1", [jobId]);
  const request = run.request as SwarmRequest;
  const recorder = StepRecorder.forRun(ds, jobId, steps);
  const ctx = {
    recorder,
    budget: new RunBudget({ maxTokens: 1e7, maxCost: 100, deadline: Date.now() + 60_000 }),
    usage: new UsageCounter(),
    signal: new AbortController().signal,
  };
  const output = await type.run(new SwarmRun(request, request.agents!, openingText(request), type.name, ctx, null, 4));
  return { steps, recorder, ctx, output };
}
