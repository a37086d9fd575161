import { expect } from "chai";
import { describedName, describeJob } from "../../shared/queues/job-description";
import { plannedSteps } from "../../shared/swarms/planned-steps";

const owner = { userId: "6f1c0000-0000-4000-8000-000000000001", apiKeyId: "0b7e0000-0000-4000-8000-00000000ab12" };
const plain = (name: string, extra: Record<string, unknown> = {}) => ({
  agent_name: name,
  model_name: "gpt-4.1",
  max_loops: 1,
  auto_generate_prompt: false,
  ...extra,
});

describe("job descriptions (what Bull Board shows of a run)", () => {
  it("names the kind, type, agents, models, account, the key id's last four and a one-line task preview", () => {
    const task = `Line one\n\n${"word ".repeat(40)}`;
    const about = describeJob({
      kind: "swarm",
      request: { swarm_type: "SequentialWorkflow", task, agents: [plain("A"), plain("B", { model_name: "m2" })] },
      owner,
    });
    expect(about).to.deep.include({
      kind: "swarm",
      swarmType: "SequentialWorkflow",
      agents: ["A", "B"],
      models: ["gpt-4.1", "m2"],
      account: owner.userId,
      keyId: owner.apiKeyId,
    });
    expect(about.task)
      .to.have.length(80)
      .and.match(/^Line one word word .*…$/);
    expect(describedName("swarm-run", about)).to.equal("swarm-run · SequentialWorkflow · A, B");
  });

  it("names the key's tier when the run has one (the account's weight in fair dispatch and LLM slots)", () => {
    const request = { agent_config: plain("A"), task: "t" };
    expect(describeJob({ kind: "agent", request, owner: { ...owner, tier: "premium" } }).tier).to.equal("premium");
    expect(describeJob({ kind: "agent", request, owner })).to.not.have.property("tier");
  });

  it("shows no task for the service's own runs (a listing under review), and no key", () => {
    const about = describeJob({
      kind: "agent",
      request: { agent_config: plain("Reviewer"), task: "Review this listing: the seller's prompt text" },
      owner: { userId: owner.userId, apiKeyId: null },
    });
    expect(about).to.not.have.property("task");
    expect(about.keyId).to.equal(null);
    expect(about.agents).to.deep.equal(["Reviewer"]);
  });
});

describe("planned steps (the total of a run's progress)", () => {
  it("is agents × each agent's loops × swarm loops for SequentialWorkflow, and an agent's loops for an agent run", () => {
    const swarm = {
      swarm_type: "SequentialWorkflow",
      max_loops: 2,
      agents: [plain("A"), plain("B", { max_loops: 3 })],
    };
    expect(plannedSteps("swarm", swarm)).to.equal(8);
    expect(plannedSteps("agent", { agent_config: plain("A", { max_loops: 2 }), task: "t" })).to.equal(2);
  });

  it("is unknown when the model's choices decide: tools, MCP, handoffs, a generated prompt, other types", () => {
    const swarmOf = (agent: object, type = "SequentialWorkflow") => ({
      swarm_type: type,
      max_loops: 1,
      agents: [agent],
    });
    expect(plannedSteps("swarm", swarmOf(plain("A", { mcp_config: { url: "https://x" } })))).to.equal(null);
    expect(plannedSteps("swarm", swarmOf(plain("A", { tools_list_dictionary: [{}] })))).to.equal(null);
    expect(plannedSteps("swarm", swarmOf(plain("A", { handoffs: [plain("B")] })))).to.equal(null);
    expect(plannedSteps("agent", { agent_config: plain("A", { auto_generate_prompt: true }) })).to.equal(null);
    expect(plannedSteps("swarm", swarmOf(plain("A"), "MixtureOfAgents"))).to.equal(null);
    expect(plannedSteps("agent_batch", { total_requests: 2 })).to.equal(null);
  });
});
