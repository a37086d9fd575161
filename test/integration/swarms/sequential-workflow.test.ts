import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, inputOf, postSwarm } from "../../helpers/swarm";

describe("SequentialWorkflow (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs agents in order on the growing transcript, max_loops times, with the documented response", async () => {
    const marker = `seq-${Date.now()}`;
    const res = await postSwarm(h, key, {
      name: "Writers",
      description: "Write together",
      swarm_type: "SequentialWorkflow",
      rules: "Be brief.",
      max_loops: 2,
      agents: [agent("Researcher"), agent("Writer"), agent("Editor")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({
      status: "success",
      swarm_name: "Writers",
      description: "Write together",
      swarm_type: "SequentialWorkflow",
      number_of_agents: 3,
      service_tier: "standard",
    });
    expect(res.body).to.include.all.keys("job_id", "output", "execution_time", "usage");
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Researcher", "Writer", "Editor", "Researcher", "Writer", "Editor"]);
    expect(res.body.output.map((t: any) => t.role)).to.deep.equal([
      "Researcher",
      "Writer",
      "Editor",
      "Researcher",
      "Writer",
      "Editor",
    ]);
    // Each agent sees the task and every earlier turn, attributed.
    expect(inputOf(calls[0])).to.equal(marker);
    expect(inputOf(calls[2])).to.equal(
      `${marker}\n\nResearcher: ${res.body.output[0].content}\n\nWriter: ${res.body.output[1].content}`,
    );
    expect(calls[0].messages[0].content)
      .to.include("Swarm rules:")
      .and.include("Rules: Be brief.")
      .and.include("Swarm purpose: Write together");
    const { billing_info: billing } = res.body.usage;
    expect(billing.cost_breakdown.num_agents).to.equal(3);
    expect(billing.cost_breakdown.agent_cost).to.equal(0.03);
    expect(res.body.usage.total_tokens).to.equal(res.body.usage.input_tokens + res.body.usage.output_tokens);
  });
});
