import { expect } from "chai";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import { RunAbortedError } from "../../../shared/llm/run-aborted";
import { UsageCounter } from "../../../workers/agents/agent-context";
import { RunBudget } from "../../../workers/agents/run-budget";
import { BudgetExceededError } from "../../../workers/agents/call-allowance";
import { internalAgentModel } from "../../../workers/swarms/internal-agent";
import { swarmRunners } from "../../../workers/swarms/registry";
import { decide, DecisionError, type DecisionTool } from "../../../workers/swarms/structured-decision";
import { SwarmRun } from "../../../workers/swarms/swarm-run";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callsMentioning, postSwarm } from "../../helpers/swarm";
import { memoryRecorder } from "../../helpers/swarm-fixture";

function pickTool(names: string[]): DecisionTool {
  return {
    name: "pick_agent",
    description: "Pick the agent best suited to the task",
    parameters: {
      type: "object",
      properties: { agent: { type: "string", enum: names }, reason: { type: "string" } },
      required: ["agent", "reason"],
      additionalProperties: false,
    },
  };
}

function swarmFor(
  agents: ReturnType<typeof agent>[],
  options: { maxTokens?: number; signal?: AbortSignal; request?: Partial<SwarmRequest> } = {},
) {
  const { recorder, steps } = memoryRecorder();
  const specs = agents.map((a) => ({
    model_name: "gpt-4.1",
    role: "worker",
    max_tokens: 1024,
    max_loops: 1,
    ...a,
  })) as unknown as NonNullable<SwarmRequest["agents"]>;
  const request = { max_loops: 1, swarm_type: "MultiAgentRouter", agents: specs, ...options.request } as SwarmRequest;
  const ctx = {
    recorder,
    budget: new RunBudget({ maxTokens: options.maxTokens ?? 1e7, maxCost: 100, deadline: Date.now() + 60_000 }),
    usage: new UsageCounter(),
    signal: options.signal ?? new AbortController().signal,
  };
  const swarm = new SwarmRun(request, specs, "", "MultiAgentRouter", ctx, null, 4);
  return { swarm, ctx, steps };
}

describe("Structured decisions", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("forces the tool call, validates it, and gives one repair attempt that shows the model its call and the error", async () => {
    const marker = `decide-repair-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const names = ["Scout", "Builder"];
    const { swarm, ctx, steps } = swarmFor(names.map((n) => agent(n)));
    const forked = swarm.fork(marker, "t3");
    let seen = 0;
    const decision = await decide<{ agent: string; reason: string }>(
      forked,
      { name: "Router", model: "gpt-4o-mini", systemPrompt: `You route. ${marker}` },
      `Task: ${marker}`,
      pickTool(names),
      () => (++seen === 1 ? `the reason must cite ${marker}-evidence` : null),
      "router",
    );
    expect(seen).to.equal(2);
    expect(names).to.include(decision.agent);

    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(2);
    for (const call of calls) {
      expect(call.model).to.equal("gpt-4o-mini");
      expect(call.tool_choice).to.deep.equal({ type: "function", function: { name: "pick_agent" } });
      expect(call.tools[0].function.parameters.properties.agent.enum).to.deep.equal(names);
    }
    const [first, repair] = calls;
    expect(first.messages.map((m: any) => m.role)).to.deep.equal(["system", "user"]);
    expect(repair.messages.map((m: any) => m.role)).to.deep.equal(["system", "user", "assistant", "tool"]);
    const [, , assistant, tool] = repair.messages;
    expect(assistant.tool_calls).to.have.length(1);
    expect(assistant.tool_calls[0].function.name).to.equal("pick_agent");
    expect(tool.tool_call_id).to.equal(assistant.tool_calls[0].id);
    expect(tool.content).to.include(`the reason must cite ${marker}-evidence`);

    // Both calls are steps of one lane under the fork's prefix, charged to budget and usage.
    expect(steps.map((s) => s.lane)).to.deep.equal(["t3/router", "t3/router"]);
    expect(steps.map((s) => (s.meta.input as any).attempt)).to.deep.equal([0, 1]);
    expect(steps.every((s) => s.meta.agentName === "Router" && s.meta.model === "gpt-4o-mini")).to.equal(true);
    expect(ctx.usage.agentNames).to.deep.equal(["Router"]);
    expect(ctx.usage.inputTokens).to.be.above(0);
    expect(ctx.usage.tokenCost).to.be.above(0);
    expect(ctx.budget.tokens).to.equal(ctx.usage.inputTokens + ctx.usage.outputTokens);
  });

  it("fails with DECISION_INVALID naming the agent and the problem when the repair is invalid too", async () => {
    const marker = `decide-fail-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const { swarm } = swarmFor([agent("Solo")]);
    let seen = 0;
    const failure = await decide(
      swarm,
      { name: "Director", model: "gpt-4.1", systemPrompt: "You direct." },
      `Task: ${marker}`,
      pickTool(["Solo"]),
      () => {
        seen++;
        return `no good ${marker}`;
      },
      "director",
    ).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).to.be.instanceOf(DecisionError);
    const err = failure as DecisionError;
    expect(err).to.include({ status: 500, code: "DECISION_INVALID", agent: "Director" });
    expect(err.message).to.include("Director").and.include("pick_agent").and.include(`no good ${marker}`);
    expect(seen).to.equal(2);
    expect(callsMentioning(h, marker)).to.have.length(2);
  });

  it("checks the budget before calling and honours the run's signal", async () => {
    const marker = `decide-limits-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const broke = swarmFor([agent("Solo")], { maxTokens: 0 });
    const who = { name: "Router", model: "gpt-4.1", systemPrompt: "You route." };
    const overBudget = await decide(
      broke.swarm,
      who,
      `Task: ${marker}`,
      pickTool(["Solo"]),
      () => null,
      "router",
    ).catch((err) => err);
    expect(overBudget).to.be.instanceOf(BudgetExceededError);

    const cancelled = new AbortController();
    cancelled.abort();
    const aborted = swarmFor([agent("Solo")], { signal: cancelled.signal });
    const stopped = await decide(aborted.swarm, who, `Task: ${marker}`, pickTool(["Solo"]), () => null, "router").catch(
      (err) => err,
    );
    expect(stopped).to.be.instanceOf(RunAbortedError);
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("a run whose decision stays invalid fails with 500 DECISION_INVALID naming the agent and the problem", async () => {
    const marker = `decide-run-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const original = swarmRunners.MajorityVoting;
    // A stand-in type whose only step is a decision no answer can satisfy.
    swarmRunners.MajorityVoting = {
      name: "MajorityVoting",
      run: (swarm) =>
        decide(
          swarm,
          { name: "Consensus", model: swarm.agents[0].model_name, systemPrompt: "You count votes." },
          swarm.opening,
          pickTool(swarm.names),
          () => `rejected ${marker}`,
          "consensus",
        ),
    };
    let res;
    try {
      res = await postSwarm(h, key, {
        swarm_type: "MajorityVoting",
        agents: [agent("One"), agent("Two")],
        task: marker,
      });
    } finally {
      swarmRunners.MajorityVoting = original;
    }
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    expect(res.body).to.include({ code: "DECISION_INVALID", agent: "Consensus" });
    expect(res.body.job_id).to.be.a("string");
    expect(res.body.detail).to.include("Consensus").and.include(`rejected ${marker}`);
    expect(callsMentioning(h, marker)).to.have.length(2);
  });
});

describe("Internal agent models", () => {
  const base = (agents: object[], request: Partial<SwarmRequest> = {}) =>
    ({ agents, request: { max_loops: 1, swarm_type: "HeavySwarm", agents, ...request } }) as unknown as SwarmRun;

  it("prefers the type's model field, then the agent whose role names the job, then the first agent", () => {
    const agents = [
      { agent_name: "A", model_name: "model-a", role: "worker" },
      { agent_name: "J", model_name: "model-j", role: "Judge" },
    ];
    expect(
      internalAgentModel(
        base(agents, { heavy_swarm_question_agent_model_name: "model-q" } as Partial<SwarmRequest>),
        "question generator",
        "heavy_swarm_question_agent_model_name",
      ),
    ).to.equal("model-q");
    expect(internalAgentModel(base(agents), "judge")).to.equal("model-j");
    expect(internalAgentModel(base(agents), "director")).to.equal("model-a");
    // Consensus is no role a request agent can take: always the first agent's model.
    expect(
      internalAgentModel(base([{ agent_name: "C", model_name: "model-c", role: "consensus" }, ...agents]), "consensus"),
    ).to.equal("model-c");
    expect(
      internalAgentModel(base([...agents, { agent_name: "C", model_name: "model-c", role: "consensus" }]), "consensus"),
    ).to.equal("model-a");
  });
});
