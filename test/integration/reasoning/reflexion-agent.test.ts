import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { postReasoning } from "../../helpers/reasoning";
import { callerOf, callsMentioning, inputOf, uniqueMarker } from "../../helpers/swarm";

describe("reasoning agents: ReflexionAgent", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("acts, evaluates and reflects each round, refining with its remembered reflections, at most memory_capacity of them", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("reflexion");
    const res = await postReasoning(h, key, {
      agent_name: "Rex",
      swarm_type: "ReflexionAgent",
      max_loops: 4,
      memory_capacity: 2,
      task: marker,
      output_type: "dict",
      llm_args: { sim_latency_ms: 50 },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const round = ["Rex", "Rex-evaluator", "Rex-reflector"];
    const calls = callsMentioning(h, marker);
    // Three full rounds, then the last acts and is evaluated: nothing would read a last reflection.
    expect(calls.map(callerOf)).to.deep.equal([...round, ...round, ...round, "Rex", "Rex-evaluator"]);
    const output: { role: string; content: string }[] = res.body.output;
    expect(output.map((t) => t.role)).to.deep.equal(["user", ...calls.map(callerOf), "Rex"]);
    const turns = output.slice(1);
    const reflections = turns.filter((t) => t.role === "Rex-reflector").map((t) => t.content);
    expect(reflections).to.have.length(3);

    expect(inputOf(calls[0])).to.equal(marker);
    // Round 2 refines round 1's response from its evaluation and the one reflection so far.
    const refine2 = inputOf(calls[3]);
    expect(refine2).to.include(`Your previous response:\n${turns[0].content}`);
    expect(refine2).to.include(`Its evaluation:\n${turns[1].content}`);
    expect(refine2).to.include(`Reflection 1: ${reflections[0]}`);
    // Round 4 remembers only the last two reflections.
    const refine4 = inputOf(calls[9]);
    expect(refine4).to.include(`Reflection 1: ${reflections[1]}`);
    expect(refine4).to.include(`Reflection 2: ${reflections[2]}`);
    expect(refine4).not.to.include(reflections[0]);
    // The evaluator sees the task and the response; the reflector the evaluation too.
    expect(inputOf(calls[1])).to.equal(`Task: ${marker}\n\nResponse to evaluate:\n${turns[0].content}`);
    expect(inputOf(calls[2])).to.include(`Evaluation:\n${turns[1].content}`);
    // Sequential: 11 calls of 50 ms.
    expect(res.body.execution_time).to.be.at.least((11 * 50 * 0.95) / 1_000);
  });

  it("stops early when the evaluation scores above 9 of 10, and answers with the best-scored response last", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("reflexion-stop");
    h.sim.script({ contains: `Task: ${marker}\n\nResponse to evaluate:`, reply: "Excellent work.\nFinal score: 9.5" });
    const res = await postReasoning(h, key, {
      agent_name: "Rex",
      swarm_type: "ReflexionAgent",
      max_loops: 5,
      task: marker,
      output_type: "final",
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Rex", "Rex-evaluator"]);
    expect(res.body.output).to.be.a("string").and.include("[simulated");
    expect(res.body.output).not.to.include("Final score");
  });
});
