import { expect } from "chai";
import { REVIEW_PROMPT } from "../../../workers/agents/messages";
import {
  heavySwarm,
  questionProblem,
  workerInput,
  type QuestionDecision,
} from "../../../workers/swarms/types/heavy-swarm";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  expectReplayWithoutLlm,
  expectSwarmSuccess,
  inputOf,
  postSwarm,
  uniqueMarker,
} from "../../helpers/swarm";

/** The question generator's decision as the model made it (its stored tool call). */
async function storedQuestions(h: Harness, runId: string): Promise<QuestionDecision> {
  const steps = await h.deps.ds.query(
    "SELECT step_key, agent_name, model, output FROM run_steps WHERE run_id = $1 AND step_key LIKE 'questions#%' ORDER BY step_key",
    [runId],
  );
  expect(steps.map((s: any) => s.step_key)).to.deep.equal(["questions#0"]);
  expect(steps[0].agent_name).to.equal("Question Generator");
  return JSON.parse(steps[0].output.tool_calls[0].function.arguments);
}

describe("HeavySwarm (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("without agents: a Question Generator on its model field, four built-in workers with 2 loops each on the worker model, then Synthesis", async () => {
    const marker = uniqueMarker("heavy");
    const workers = ["Research", "Analysis", "Alternatives", "Verification"];
    const res = await postSwarm(h, key, {
      name: "Deep",
      swarm_type: "HeavySwarm",
      task: marker,
      heavy_swarm_loops_per_agent: 2,
      heavy_swarm_question_agent_model_name: "gpt-4o-mini",
      heavy_swarm_worker_model_name: "gpt-4.1-nano",
    });
    expectSwarmSuccess(res, { swarm_type: "HeavySwarm", swarm_name: "Deep", number_of_agents: 6 });

    const output = res.body.output as { role: string; content: any }[];
    expect(output.map((t) => t.role)).to.deep.equal(["Question Generator", ...workers, "Synthesis"]);

    // 1 + W·loops + 1 = 10 calls: the question generator first, Synthesis last.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(10);
    const generator = calls[0];
    expect(callerOf(generator)).to.equal("Question Generator");
    expect(generator.model).to.equal("gpt-4o-mini");
    expect(generator.tool_choice).to.deep.equal({ type: "function", function: { name: "assign_questions" } });
    expect(generator.tools).to.have.length(1);
    const schema = generator.tools[0].function.parameters.properties.questions;
    expect(schema.required).to.deep.equal(workers);
    expect(Object.keys(schema.properties)).to.deep.equal(workers);
    expect(schema.additionalProperties).to.equal(false);
    for (const name of workers) expect(inputOf(generator)).to.include(`- ${name}:`);

    // The Question Generator turn is the object of questions keyed by worker: the model's decision.
    const decision = await storedQuestions(h, res.body.job_id);
    expect(output[0].content).to.deep.equal(decision.questions);
    // (Key order is not asserted: the run's output is stored as jsonb, which orders keys itself.)
    expect(Object.keys(output[0].content).sort()).to.deep.equal([...workers].sort());

    const workerCalls = calls.slice(1, 9);
    expect(workerCalls.map(callerOf).sort()).to.deep.equal([...workers, ...workers].sort());
    workers.forEach((name, i) => {
      const own = workerCalls.filter((c) => callerOf(c) === name);
      expect(own, `${name} runs 2 loops`).to.have.length(2);
      const [first, second] = own.sort((a, b) => a.messages.length - b.messages.length);
      for (const call of own) expect(call.model, `${name} runs on the worker model`).to.equal("gpt-4.1-nano");
      // Loop 1: the task and its own question, and no other worker's question.
      expect(inputOf(first)).to.equal(workerInput(marker, decision.questions[name].trim()));
      // Loop 2 refines the previous answer: that answer stays in context, then the review prompt.
      expect(inputOf(second)).to.equal(REVIEW_PROMPT);
      const firstAnswer = second.messages.find((m: any) => m.role === "assistant");
      expect(firstAnswer.content).to.include(conversationOf(first));
      // The output is the final answer only, not the first one.
      expect(output[1 + i].content)
        .to.include(conversationOf(second))
        .and.not.include(conversationOf(first));
    });

    const synthesis = calls[9];
    expect(callerOf(synthesis)).to.equal("Synthesis");
    expect(synthesis.model).to.equal("gpt-4.1-nano");
    const synthesisInput = inputOf(synthesis);
    expect(synthesisInput.startsWith(`Task:\n${marker}`)).to.equal(true);
    workers.forEach((name, i) =>
      expect(synthesisInput).to.include(
        `${name}\nQuestion: ${decision.questions[name].trim()}\nAnswer: ${output[1 + i].content}`,
      ),
    );
    expect(output[5].content).to.include(conversationOf(synthesis));
  });

  it("with agents: the request's agents are the workers (own models), the question schema names them, unset model fields fall back to the first agent's model", async () => {
    const marker = uniqueMarker("heavy-agents");
    const names = ["Scout", "Critic"];
    const res = await postSwarm(h, key, {
      swarm_type: "HeavySwarm",
      agents: [
        agent("Scout", { model_name: "gpt-4o", llm_args: { sim_latency_ms: 300 } }),
        agent("Critic", { model_name: "gpt-5-mini" }),
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.number_of_agents).to.equal(4);
    const output = res.body.output as { role: string; content: any }[];
    expect(output.map((t) => t.role)).to.deep.equal(["Question Generator", ...names, "Synthesis"]);

    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(4);
    expect(callerOf(calls[0])).to.equal("Question Generator");
    expect(calls[0].model, "no default of another provider").to.equal("gpt-4o");
    expect(calls[0].tools[0].function.parameters.properties.questions.required).to.deep.equal(names);
    expect(inputOf(calls[0])).to.include("- Scout: Scout does its part").and.include("- Critic: Critic does its part");
    const decision = await storedQuestions(h, res.body.job_id);
    expect(output[0].content).to.deep.equal(decision.questions);

    const models: Record<string, string> = { Scout: "gpt-4o", Critic: "gpt-5-mini" };
    names.forEach((name, i) => {
      const call = calls.slice(1, 3).find((c) => callerOf(c) === name)!;
      expect(call.model).to.equal(models[name]);
      expect(call.messages[0].content).to.include(`You are ${name}.`);
      expect(inputOf(call)).to.equal(workerInput(marker, decision.questions[name].trim()));
      expect(output[1 + i].content).to.include(conversationOf(call));
    });
    expect(callerOf(calls[3])).to.equal("Synthesis");
    expect(calls[3].model, "the first agent's model, not a Claude default").to.equal("gpt-4o");
  });

  it("accepts a request without agents but still requires task, tasks or messages", async () => {
    const res = await postSwarm(h, key, { swarm_type: "HeavySwarm" });
    // Only the missing task (the 422 of a missing field): no complaint about the agents.
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.detail).to.have.length(1);
    expect(res.body.detail[0]).to.deep.include({ loc: ["body", "task"], type: "any.required" });
  });

  it("rejects question decisions that miss a worker or name an unknown one (unit)", () => {
    const workers = ["A", "B"];
    expect(questionProblem(workers, { questions: { A: "qa", B: "qb" } })).to.equal(null);
    expect(questionProblem(workers, { questions: { A: "qa" } })).to.equal("no question for B");
    expect(questionProblem(workers, { questions: { A: "qa", B: " " } })).to.equal("no question for B");
    expect(questionProblem(workers, { questions: { A: "qa", B: "qb", C: "qc" } })).to.include("unknown workers C");
    expect(questionProblem(workers, [])).to.include("'questions' must be an object");
  });

  it("a retried run replays every step without calling the LLM again", async () => {
    const marker = uniqueMarker("heavy-replay");
    const res = await postSwarm(h, key, {
      swarm_type: "HeavySwarm",
      agents: [agent("One"), agent("Two")],
      task: marker,
      heavy_swarm_loops_per_agent: 2,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { stepKeys, recorder, ctx } = await expectReplayWithoutLlm(h, res, heavySwarm, marker, 6);
    expect(stepKeys).to.deep.equal(["questions#0", "synthesis#0", "w0#0", "w0#1", "w1#0", "w1#1"]);
    expect(recorder.replayed).to.equal(6);
    expect(ctx.usage.agentNames.sort()).to.deep.equal(["One", "Question Generator", "Synthesis", "Two"]);
  });
});
