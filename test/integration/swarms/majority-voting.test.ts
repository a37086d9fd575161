import { expect } from "chai";
import {
  majorityVoting,
  renderTally,
  tallyVotes,
  voteProblem,
  type Tally,
  type VoteDecision,
} from "../../../workers/swarms/types/majority-voting";
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
} from "../../helpers/swarm";

/** The groups `same_as` links make (connected components), computed independently of the service. */
function components(names: string[], votes: VoteDecision["votes"]): string[][] {
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const start of names) {
    if (seen.has(start)) continue;
    const group: string[] = [];
    const queue = [start];
    seen.add(start);
    while (queue.length) {
      const name = queue.shift()!;
      group.push(name);
      const linked = names.filter((other) => votes[name].same_as === other || votes[other].same_as === name);
      for (const other of linked) if (!seen.has(other)) (seen.add(other), queue.push(other));
    }
    groups.push(group.sort((a, b) => names.indexOf(a) - names.indexOf(b)));
  }
  return groups;
}

describe("MajorityVoting (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs agents in parallel, then a forced-tool Consensus per round whose tally the service counts, for max_loops rounds", async () => {
    const marker = `mv-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const names = ["Alpha", "Beta", "Gamma"];
    // The first agent is the slowest (completion order must not matter) and sets the Consensus model.
    const res = await postSwarm(h, key, {
      name: "Voters",
      swarm_type: "MajorityVoting",
      max_loops: 2,
      agents: [
        agent("Alpha", { model_name: "gpt-4o-mini", llm_args: { sim_latency_ms: 300 } }),
        agent("Beta"),
        agent("Gamma"),
      ],
      task: marker,
    });
    expectSwarmSuccess(res, { swarm_type: "MajorityVoting", swarm_name: "Voters", number_of_agents: 4 });

    const output = res.body.output as { role: string; content: string; tally?: Tally }[];
    expect(output.map((t) => t.role)).to.deep.equal([...names, "Consensus", ...names, "Consensus"]);

    // (N+1)·L calls: each round the three agents (any order), then the Consensus.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(8);
    expect(calls.map(callerOf).slice(0, 3).sort()).to.deep.equal(names);
    expect(calls.map(callerOf).slice(4, 7).sort()).to.deep.equal(names);
    const ballots = [calls[3], calls[7]];
    for (const call of ballots) {
      expect(callerOf(call)).to.equal("Consensus");
      expect(call.model, "internal agent uses the first agent's model").to.equal("gpt-4o-mini");
      expect(call.tool_choice).to.deep.equal({ type: "function", function: { name: "report_votes" } });
      expect(call.tools).to.have.length(1);
      const votes = call.tools[0].function.parameters.properties.votes;
      expect(votes.required).to.deep.equal(names);
      expect(votes.additionalProperties).to.equal(false);
      for (const name of names) expect(votes.properties[name].properties.same_as.enum).to.deep.equal(names);
    }
    for (const call of [...calls.slice(0, 3), ...calls.slice(4, 7)])
      expect(call.tools, `${callerOf(call)} gets no tools`).to.equal(undefined);

    // Agent turns are each agent's own reply; round 1 is the task alone.
    for (const [round, offset] of [
      [0, 0],
      [1, 4],
    ]) {
      for (const [i, name] of names.entries()) {
        const call = calls.slice(offset, offset + 3).find((c) => callerOf(c) === name)!;
        expect(output[round * 4 + i].content, `round ${round + 1} turn of ${name}`).to.include(conversationOf(call));
        if (round === 0) expect(inputOf(call)).to.equal(marker);
      }
    }
    // The Consensus sees every answer of its round, attributed.
    names.forEach((name, i) => {
      expect(inputOf(ballots[0])).to.include(`${name}: ${output[i].content}`);
      expect(inputOf(ballots[1])).to.include(`${name}: ${output[4 + i].content}`);
    });
    // Round 2: the task, round 1's answers and round 1's tally.
    for (const call of calls.slice(4, 7)) {
      const input = inputOf(call);
      expect(input.startsWith(marker)).to.equal(true);
      names.forEach((name, i) => expect(input).to.include(`${name}: ${output[i].content}`));
      expect(input).to.include(output[3].content);
    }

    // The tally is the groups the model's links make, counted by the service.
    const steps = await h.deps.ds.query(
      "SELECT step_key, output FROM run_steps WHERE run_id = $1 AND agent_name = 'Consensus' ORDER BY step_key",
      [res.body.job_id],
    );
    expect(steps.map((s: any) => s.step_key)).to.deep.equal(["l0/consensus#0", "l1/consensus#0"]);
    steps.forEach((step: any, round: number) => {
      const decision = JSON.parse(step.output.tool_calls[0].function.arguments) as VoteDecision;
      const turn = output[round * 4 + 3];
      const tally = turn.tally!;
      const groups = components(names, decision.votes);
      expect(tally.votes.map((g) => g.agents).sort()).to.deep.equal(groups.sort());
      for (const group of tally.votes) {
        expect(group.votes).to.equal(group.agents.length);
        expect(group.answer).to.equal(decision.votes[group.agents[0]].answer);
      }
      expect(tally.votes.reduce((sum, g) => sum + g.votes, 0)).to.equal(3);
      expect(tally.majority).to.equal(tally.votes[0].answer);
      expect(Math.max(...tally.votes.map((g) => g.votes))).to.equal(tally.votes[0].votes);
      expect(tally.rationale).to.equal(decision.rationale);
      expect(turn.content).to.equal(renderTally(tally));
      expect(turn.content).to.match(/^(Majority|Tie) \(\d of 3 votes/);
    });
  });

  it("a retried run replays every step (agent turns and decisions) without calling the LLM again", async () => {
    const marker = `mv-replay-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const res = await postSwarm(h, key, {
      swarm_type: "MajorityVoting",
      max_loops: 2,
      agents: [agent("One"), agent("Two")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { recorder, ctx } = await expectReplayWithoutLlm(h, res, majorityVoting, marker, 6);
    expect(recorder.replayed).to.equal(6);
    expect(ctx.usage.agentNames.sort()).to.deep.equal(["Consensus", "One", "Two"]);
  });
});

describe("MajorityVoting tally (unit)", () => {
  const names = ["A", "B", "C", "D"];
  const ballot = (answer: string, same_as: string) => ({ answer, same_as });

  it("groups linked agents transitively and in either direction, orders by votes, and takes the first member's answer", () => {
    const tally = tallyVotes(names, {
      votes: { A: ballot("blue", "A"), B: ballot("red", "B"), C: ballot("navy", "D"), D: ballot("blue too", "A") },
      rationale: " shades of blue ",
    });
    expect(tally).to.deep.equal({
      votes: [
        { answer: "blue", agents: ["A", "C", "D"], votes: 3 },
        { answer: "red", agents: ["B"], votes: 1 },
      ],
      majority: "blue",
      rationale: "shades of blue",
    });
    expect(renderTally(tally)).to.equal(
      "Majority (3 of 4 votes): blue\nVotes:\n- blue (3): A, C, D\n- red (1): B\nRationale: shades of blue",
    );
  });

  it("breaks a tie by agent order and says so", () => {
    const tally = tallyVotes(names, {
      votes: { A: ballot("yes", "A"), B: ballot("no", "B"), C: ballot("no", "B"), D: ballot("yes", "A") },
      rationale: "split",
    });
    expect(tally.votes.map((g) => g.agents)).to.deep.equal([
      ["A", "D"],
      ["B", "C"],
    ]);
    expect(tally.majority).to.equal("yes");
    expect(renderTally(tally).split("\n")[0]).to.equal(
      "Tie (2 of 4 votes each for 2 answers; the first in agent order is taken): yes",
    );
  });

  it("rejects ballots that miss an agent, name an unknown one, or link outside the team", () => {
    expect(
      voteProblem(names, {
        votes: { A: ballot("x", "A"), B: ballot("x", "A"), C: ballot("x", "A"), D: ballot("x", "A") },
        rationale: "",
      }),
    ).to.equal(null);
    expect(
      voteProblem(names, { votes: { A: ballot("x", "A"), B: ballot("x", "A"), C: ballot("x", "A") }, rationale: "r" }),
    ).to.equal("no ballot for D");
    expect(
      voteProblem(names, {
        votes: {
          A: ballot("x", "A"),
          B: ballot("x", "A"),
          C: ballot("x", "A"),
          D: ballot("x", "A"),
          E: ballot("x", "A"),
        },
        rationale: "r",
      }),
    ).to.include("unknown agents E");
    expect(
      voteProblem(names, {
        votes: { A: ballot("x", "Z"), B: ballot("", "A"), C: ballot("x", "A"), D: ballot("x", "A") },
        rationale: "r",
      }),
    )
      .to.include("A's 'same_as' must be one of A, B, C, D")
      .and.include("B's ballot needs a non-empty 'answer'");
    expect(voteProblem(names, [])).to.include("'votes' must be an object");
    expect(
      voteProblem(names, {
        votes: { A: ballot("x", "A"), B: ballot("x", "A"), C: ballot("x", "A"), D: ballot("x", "A") },
      }),
    ).to.equal("'rationale' must be a string");
  });
});
