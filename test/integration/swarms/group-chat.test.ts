import { expect } from "chai";
import { mentionedAgents } from "../../../workers/swarms/types/mentions";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, inputOf, postSwarm } from "../../helpers/swarm";

/** The transcript of docs/swarm-types.md ("Common rules"): the task, then the first `upTo` turns as `<name>: <content>` blocks. */
function transcript(task: string, turns: { role: string; content: string }[], upTo: number): string {
  return [task, ...turns.slice(0, upTo).map((t) => `${t.role}: ${t.content}`)].join("\n\n");
}

describe("GroupChat (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  /** Posts a GroupChat and checks what holds for every run: N·L calls, each on the transcript so far. */
  async function chat(marker: string, agents: unknown[], maxLoops = 1) {
    const res = await postSwarm(h, key, { swarm_type: "GroupChat", max_loops: maxLoops, agents, task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: "success", swarm_type: "GroupChat", number_of_agents: agents.length });
    const output = res.body.output as { role: string; content: string }[];
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(agents.length * maxLoops);
    // The output is the turns in the order they were spoken, each under the agent that was asked.
    expect(output.map((t) => t.role)).to.deep.equal(calls.map(callerOf));
    calls.forEach((call, k) => expect(inputOf(call), `turn ${k}`).to.equal(transcript(marker, output, k)));
    return { order: output.map((t) => t.role), output };
  }

  it("without mentions, every agent speaks once per round in request order, max_loops rounds", async () => {
    const marker = `gc-plain-${Date.now()}`;
    const { order, output } = await chat(marker, [agent("Writer"), agent("Coder"), agent("Critic")], 2);
    expect(order).to.deep.equal(["Writer", "Coder", "Critic", "Writer", "Coder", "Critic"]);
    // Round 2 answers differ from round 1's: each agent saw the longer transcript.
    expect(output[3].content).to.not.equal(output[0].content);
  });

  it("a turn naming @Critic makes Critic speak next in that round, in every round", async () => {
    const marker = `gc-mention-${Date.now()}`;
    const { order, output } = await chat(
      marker,
      [agent("Writer", { llm_args: { sim_reply: "Over to @Critic" } }), agent("Coder"), agent("Critic")],
      2,
    );
    expect(order).to.deep.equal(["Writer", "Critic", "Coder", "Writer", "Critic", "Coder"]);
    expect(output[0].content).to.equal("Over to @Critic");
    expect(output[3].content).to.equal("Over to @Critic");
  });

  it("several mentions keep their order; a later turn's mentions go first; each agent still speaks once", async () => {
    const marker = `gc-many-${Date.now()}`;
    const { order } = await chat(marker, [
      agent("Ann", { llm_args: { sim_reply: "@Dan first, then @Cy." } }),
      agent("Bo"),
      agent("Cy", { llm_args: { sim_reply: "Thanks @Ann and @Dan." } }), // both already spoke: ignored
      agent("Dan", { llm_args: { sim_reply: "Let me hear @Eve" } }),
      agent("Eve"),
    ]);
    // Ann calls Dan then Cy; Dan calls Eve, who speaks before Cy; then the rest in request order.
    expect(order).to.deep.equal(["Ann", "Dan", "Eve", "Cy", "Bo"]);
  });

  it("ignores mentions of the speaker itself, of unknown names and of agents who already spoke", async () => {
    const marker = `gc-ignored-${Date.now()}`;
    const { order } = await chat(marker, [
      agent("Host", { llm_args: { sim_reply: "I, @Host, ask @Nobody and @Hosts; @Guest, please." } }),
      agent("Panelist", { llm_args: { sim_reply: "Agreed, @Panelist here." } }),
      agent("Guest", { llm_args: { sim_reply: "Back to @Host and @Moderator." } }),
    ]);
    // Only @Guest counts; Guest's mention of Host (already spoke) and of an unknown name change nothing.
    expect(order).to.deep.equal(["Host", "Guest", "Panelist"]);
  });

  it("with only self and unknown mentions, the order stays request order", async () => {
    const marker = `gc-noop-${Date.now()}`;
    const { order } = await chat(marker, [
      agent("One", { llm_args: { sim_reply: "@One @Zero @three" } }),
      agent("Two"),
      agent("Three"),
    ]);
    expect(order).to.deep.equal(["One", "Two", "Three"]);
  });

  it("needs at least 2 agents (400, no LLM call)", async () => {
    const marker = `gc-one-${Date.now()}`;
    const res = await postSwarm(h, key, { swarm_type: "GroupChat", agents: [agent("Solo")], task: marker });
    expect(res.status).to.equal(400);
    expect(res.body.detail).to.include("GroupChat needs at least 2 agents");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });
});

describe("GroupChat mentions", () => {
  const names = ["Critic", "Critic Jr", "Data Analyst", "Coder"];

  it("finds exact names in order of first mention, longest name first, spaces allowed", () => {
    expect(mentionedAgents("@Coder then @Critic Jr, then @Critic and @Coder again", names)).to.deep.equal([3, 1, 0]);
    expect(mentionedAgents("ask @Data Analyst.", names)).to.deep.equal([2]);
  });

  it("ignores unknown names, partial names, other case and bare @", () => {
    expect(mentionedAgents("@Critics @critic @Data @ Coder mail@example.com", names)).to.deep.equal([]);
    expect(mentionedAgents("no mentions here", names)).to.deep.equal([]);
  });
});
