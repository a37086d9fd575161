import { expect } from "chai";
import {
  bordaTally,
  councilOrder,
  llmCouncil,
  rankingProblem,
  renderCouncilTally,
  type CouncilTally,
  type RankingDecision,
} from "../../../workers/swarms/types/llm-council";
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

/** A task whose per-run shuffle is not the identity, so "shuffled" can fail. */
function shuffledMarker(prefix: string, names: string[]): string {
  for (;;) {
    const marker = uniqueMarker(prefix);
    const order = councilOrder(marker, names);
    if (order.some((member, k) => member !== k)) return marker;
  }
}

describe("LLMCouncil (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("members answer in parallel, rank the anonymised answers, the service counts Borda points, an internal Chairman answers", async () => {
    const names = ["Alpha", "Beta", "Gamma"];
    const marker = shuffledMarker("council", names);
    const res = await postSwarm(h, key, {
      name: "Council",
      swarm_type: "LLMCouncil",
      agents: [
        agent("Alpha", { model_name: "gpt-4o-mini", llm_args: { sim_latency_ms: 300 } }),
        agent("Beta"),
        agent("Gamma"),
      ],
      task: marker,
    });
    expectSwarmSuccess(res, { swarm_type: "LLMCouncil", swarm_name: "Council", number_of_agents: 4 });

    const output = res.body.output as { role: string; content: string; tally?: CouncilTally; ranking?: string[] }[];
    expect(output.map((t) => t.role)).to.deep.equal([...names, ...names, "Tally", "Chairman"]);

    // 2N+1 calls: the answers, then the rankings, then the Chairman.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(7);
    expect(calls.slice(0, 3).map(callerOf).sort()).to.deep.equal(names);
    expect(calls.slice(3, 6).map(callerOf).sort()).to.deep.equal(names);
    expect(callerOf(calls[6])).to.equal("Chairman");
    expect(calls[6].model, "the internal Chairman runs on the first agent's model").to.equal("gpt-4o-mini");

    names.forEach((name, i) => {
      const call = calls.slice(0, 3).find((c) => callerOf(c) === name)!;
      expect(inputOf(call)).to.equal(marker);
      expect(call.tools).to.equal(undefined);
      expect(output[i].content, `${name}'s answer is its own reply`).to.include(conversationOf(call));
    });

    // The evaluators see the answers under letters, in the run's shuffled order, and no member names.
    const letters = ["A", "B", "C"];
    const answerOf = (letter: string, input: string) => {
      const match = new RegExp(`Answer ${letter}:\\n([^\\n]*)`).exec(input);
      return match ? match[1] : null;
    };
    const evaluators = calls.slice(3, 6);
    const firstInput = inputOf(evaluators[0]);
    // The letter → member mapping the evaluators were shown, read from their input alone.
    const shown: Record<string, string> = {};
    for (const letter of letters) {
      const content = answerOf(letter, firstInput);
      const member = names.find((_, i) => output[i].content === content);
      expect(member, `answer ${letter} is one member's answer`).to.be.a("string");
      shown[letter] = member!;
    }
    expect(Object.values(shown).sort()).to.deep.equal(names);
    const order = councilOrder(marker, names);
    expect(letters.map((l) => shown[l])).to.deep.equal(order.map((i) => names[i]));
    expect(
      letters.map((l) => shown[l]),
      "the answers are shuffled",
    ).not.to.deep.equal(names);
    for (const call of evaluators) {
      const input = inputOf(call);
      expect(input, "every evaluator sees the same anonymised input").to.equal(firstInput);
      expect(input.startsWith(`Task:\n${marker}`)).to.equal(true);
      for (const name of names) expect(input, `no member name (${name}) in the evaluator's input`).not.to.include(name);
      // The team note names nobody else either.
      const system = String(call.messages[0].content);
      for (const other of names.filter((n) => n !== callerOf(call))) expect(system).not.to.include(other);
      expect(call.tool_choice).to.deep.equal({ type: "function", function: { name: "rank_answers" } });
      expect(call.tools).to.have.length(1);
      const ranking = call.tools[0].function.parameters.properties.ranking;
      expect(ranking.items.enum).to.deep.equal(letters);
      expect(ranking).to.include({ minItems: 3, maxItems: 3, uniqueItems: true });
    }

    // The rankings as the models made them (stored decision steps), counted independently here.
    const steps = await h.deps.ds.query(
      "SELECT step_key, agent_name, output FROM run_steps WHERE run_id = $1 AND step_key LIKE 'e%' ORDER BY step_key",
      [res.body.job_id],
    );
    expect(steps.map((s: any) => [s.step_key, s.agent_name])).to.deep.equal([
      ["e0#0", "Alpha"],
      ["e1#0", "Beta"],
      ["e2#0", "Gamma"],
    ]);
    const decisions: RankingDecision[] = steps.map(
      (s: any) => JSON.parse(s.output.tool_calls[0].function.arguments) as RankingDecision,
    );
    const expected: Record<string, number> = { Alpha: 0, Beta: 0, Gamma: 0 };
    for (const decision of decisions) {
      expect([...decision.ranking].sort()).to.deep.equal(letters);
      decision.ranking.forEach((letter, place) => (expected[shown[letter]] += 2 - place));
    }
    const turn = output[6];
    const tally = turn.tally!;
    expect(tally.points).to.deep.equal(expected);
    expect(Object.values(tally.points).reduce((a, b) => a + b, 0)).to.equal(9); // 3 rankings × (2+1+0)
    expect(tally.letters).to.deep.equal(shown);
    const expectedOrder = [...names].sort((a, b) => expected[b] - expected[a] || names.indexOf(a) - names.indexOf(b));
    expect(tally.order).to.deep.equal(expectedOrder);
    expect(turn.content).to.equal(renderCouncilTally(tally));
    expectedOrder.forEach((member, i) =>
      expect(turn.content)
        .to.include(`${i + 1}. ${member} (answer `)
        .and.include(`${member} (answer ${letters.find((l) => shown[l] === member)}): ${expected[member]} point`),
    );

    // Evaluation turns: under the member, readable, with the ranking de-anonymised.
    decisions.forEach((decision: RankingDecision, i: number) => {
      const evaluation = output[3 + i];
      expect(evaluation.content).to.match(/^Ranking \(best first\): 1\. [ABC] \(/);
      decision.ranking.forEach((letter, place) =>
        expect(evaluation.content).to.include(`${place + 1}. ${letter} (${shown[letter]})`),
      );
      expect(evaluation.content).to.include(decision.evaluation);
      expect(evaluation.ranking).to.deep.equal(decision.ranking.map((l) => shown[l]));
    });

    // The Chairman sees answers, evaluations and the tally.
    const chairInput = inputOf(calls[6]);
    names.forEach((name, i) => {
      expect(chairInput).to.include(`${name}: ${output[i].content}`);
      expect(chairInput).to.include(`${name}: ${output[3 + i].content}`);
    });
    expect(chairInput).to.include(turn.content);
    expect(output[7].content).to.include(conversationOf(calls[6]));
  });

  it("an agent with role chairman writes the final answer instead of being a member", async () => {
    const marker = uniqueMarker("council-chair");
    const res = await postSwarm(h, key, {
      swarm_type: "LLMCouncil",
      agents: [agent("Boss", { role: "chairman", model_name: "gpt-4.1-mini" }), agent("Ann"), agent("Bob")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.number_of_agents).to.equal(3);
    expect(res.body.output.map((t: any) => t.role)).to.deep.equal(["Ann", "Bob", "Ann", "Bob", "Tally", "Chairman"]);
    expect(res.body.output.at(-1).agent, "the job and the agent that did it").to.equal("Boss");
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(5);
    expect(callerOf(calls[4])).to.equal("Boss");
    expect(calls[4].model).to.equal("gpt-4.1-mini");
    expect(calls[4].messages[0].content).to.include("You are Boss.");
    for (const call of calls.slice(2, 4))
      expect(call.tools[0].function.parameters.properties.ranking.items.enum).to.deep.equal(["A", "B"]);
    expect(res.body.output[4].tally.points.Ann + res.body.output[4].tally.points.Bob).to.equal(2);
  });

  it("answers 400 with fewer than 2 members, before any LLM call", async () => {
    for (const agents of [[agent("Solo")], [agent("Solo"), agent("Head", { role: "chairman" })]]) {
      const marker = uniqueMarker("council-few");
      const res = await postSwarm(h, key, { swarm_type: "LLMCouncil", agents, task: marker });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.detail)
        .to.be.a("string")
        .and.match(/LLMCouncil needs at least 2/);
      expect(callsMentioning(h, marker)).to.have.length(0);
    }
  });

  it("a retried run replays every step without calling the LLM again", async () => {
    const marker = uniqueMarker("council-replay");
    const res = await postSwarm(h, key, {
      swarm_type: "LLMCouncil",
      agents: [agent("One"), agent("Two")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { stepKeys, recorder, ctx } = await expectReplayWithoutLlm(h, res, llmCouncil, marker, 5);
    expect(stepKeys).to.deep.equal(["chairman#0", "e0#0", "e1#0", "m0#0", "m1#0"]);
    expect(recorder.replayed).to.equal(5);
    expect(ctx.usage.agentNames.sort()).to.deep.equal(["Chairman", "One", "Two"]);
  });
});

describe("LLMCouncil tally and shuffle (unit)", () => {
  const members = ["P", "Q", "R", "S"];
  const letters = { A: "R", B: "P", C: "S", D: "Q" };

  it("Borda: with K answers first place gets K−1 points … last 0; order by points, ties in member order", () => {
    const tally = bordaTally(members, letters, [
      ["A", "B", "C", "D"], // R 3, P 2, S 1, Q 0
      ["B", "A", "D", "C"], // P 3, R 2, Q 1, S 0
      ["D", "C", "B", "A"], // Q 3, S 2, P 1, R 0
    ]);
    expect(tally.points).to.deep.equal({ P: 6, Q: 4, R: 5, S: 3 });
    expect(tally.order).to.deep.equal(["P", "R", "Q", "S"]);
    const tie = bordaTally(["P", "Q"], { A: "Q", B: "P" }, [
      ["A", "B"],
      ["B", "A"],
    ]);
    expect(tie.points).to.deep.equal({ P: 1, Q: 1 });
    expect(tie.order).to.deep.equal(["P", "Q"]);
    expect(renderCouncilTally(tie)).to.equal(
      "Borda count of the rankings (first place 1 point … last place 0):\n1. P (answer B): 1 point\n2. Q (answer A): 1 point",
    );
  });

  it("accepts only rankings that list every letter exactly once", () => {
    const l = ["A", "B", "C"];
    expect(rankingProblem(l, { evaluation: "ok", ranking: ["C", "A", "B"] })).to.equal(null);
    expect(rankingProblem(l, { evaluation: "ok", ranking: ["C", "A"] })).to.equal("'ranking' leaves out B");
    expect(rankingProblem(l, { evaluation: "ok", ranking: ["C", "A", "A"] }))
      .to.include("'ranking' repeats A")
      .and.include("leaves out B");
    expect(rankingProblem(l, { evaluation: "ok", ranking: ["C", "A", "B", "D"] })).to.include("unknown letters D");
    expect(rankingProblem(l, { ranking: ["C", "A", "B"] })).to.equal("'evaluation' must be a string");
    expect(rankingProblem(l, "x")).to.include("must be an object");
  });

  it("the shuffle is a deterministic permutation that depends on the task", () => {
    const first = councilOrder("task one", members);
    expect([...first].sort()).to.deep.equal([0, 1, 2, 3]);
    expect(councilOrder("task one", members)).to.deep.equal(first);
    const orders = new Set(Array.from({ length: 20 }, (_, i) => councilOrder(`task ${i}`, members).join()));
    expect(orders.size).to.be.greaterThan(1);
  });
});
