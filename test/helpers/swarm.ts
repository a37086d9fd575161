import { expect } from "chai";
import { hashText } from "../../scripts/llm-simulator/hash";
import type { SwarmTypeRunner } from "../../workers/swarms/swarm-type-runner";
import type { Harness } from "./harness";
import { request } from "./http";
import { replayStoredRun } from "./swarm-fixture";

/** A unique marker to put in a task, so a test finds its own calls in the shared simulator journal. */
export const uniqueMarker = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** Posts a swarm (`POST /v1/swarm/completions`) and returns the response. */
export function postSwarm(h: Harness, key: string, body: unknown, headers: Record<string, string> = {}) {
  return request(h.baseUrl, "POST", "/v1/swarm/completions", { key, body, headers });
}

/** Simulator journal entries (request body and arrival time `at`) whose messages mention `marker`, in arrival order. */
export function entriesMentioning(h: Harness, marker: string): any[] {
  return h.sim.journal.filter((e: any) => JSON.stringify(e.body?.messages ?? "").includes(marker));
}

/** Simulator calls whose messages mention `marker`, in the order they were made. */
export function callsMentioning(h: Harness, marker: string): any[] {
  return entriesMentioning(h, marker).map((e: any) => e.body);
}

/** The agent a call was made for, read from the team note at the end of its system prompt. */
export function callerOf(body: any): string {
  const system = String(body.messages[0]?.content ?? "");
  const note = /You are ([^,\n]+), an agent of the/.exec(system);
  return note ? note[1] : "?";
}

/** The user message (the turn's input) of a call. */
export function inputOf(body: any): string {
  const user = body.messages.filter((m: any) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : (user?.content?.[0]?.text ?? "");
}

/** A swarm agent spec with a name and a recognisable prompt. */
export function agent(name: string, extra: Record<string, unknown> = {}) {
  return { agent_name: name, description: `${name} does its part`, system_prompt: `You are ${name}.`, ...extra };
}

/** An agent spec the simulator answers with `by <name>`, so an output shows whose it is. */
export function signedAgent(name: string) {
  return { agent_name: name, model_name: "gpt-4o-mini", llm_args: { sim_reply: `by ${name}` } };
}

/** How many steps a run stored for the agents named `agentNames`. */
export async function storedStepCount(h: Harness, runId: string, agentNames: string[]): Promise<number> {
  const [row] = await h.deps.ds.query(
    "SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1 AND agent_name = ANY($2)",
    [runId, agentNames],
  );
  return row.n;
}

/** The conversation id the simulator puts in its default reply: ties an output turn to its call. */
export const conversationOf = (body: any) => `(conversation ${hashText(JSON.stringify(body.messages)).slice(0, 8)})`;

/**
 * Asserts a swarm answered 200 with `status: "success"`, the given fields (type, name, agent
 * count) and a bill for that many agents; returns its output turns.
 */
export function expectSwarmSuccess<Turn = { role: string; content: any }>(
  res: { status: number; body: any },
  expected: { swarm_type: string; number_of_agents: number; swarm_name?: string },
): Turn[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body).to.include({ status: "success", ...expected });
  expect(res.body.usage.billing_info.cost_breakdown.num_agents).to.equal(expected.number_of_agents);
  return res.body.output;
}

/**
 * Replays a finished swarm run's stored steps (as a retried job would) and asserts the replay gives
 * the same output without one more LLM call for `marker` (`calls`, when given, is how many the run
 * made). Returns what the caller checks further: the stored steps' sorted keys, the recorder (its
 * `replayed` count), the replay's context (its usage) and the calls the run made.
 */
export async function expectReplayWithoutLlm(
  h: Harness,
  res: { body: any },
  type: SwarmTypeRunner,
  marker: string,
  calls?: number,
) {
  const made = callsMentioning(h, marker).length;
  if (calls !== undefined) expect(made, "LLM calls of the first run").to.equal(calls);
  const { steps, recorder, ctx, output } = await replayStoredRun(h.deps.ds, res.body.job_id, type);
  expect(JSON.parse(JSON.stringify(output))).to.deep.equal(res.body.output);
  expect(callsMentioning(h, marker), "LLM calls after the replay").to.have.length(made);
  const stepKeys: string[] = steps.map((s: any) => s.step_key).sort();
  return { steps, stepKeys, recorder, ctx, made };
}
