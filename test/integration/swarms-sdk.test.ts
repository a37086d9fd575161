import { expect } from "chai";
import type SwarmsClient from "../vendor/swarms-ts/src/index";
import { harness, type Harness } from "../helpers/harness";
import { expectSdkType, swarmsClient } from "../helpers/swarms-sdk";

/**
 * The hosted API's TypeScript SDK, unchanged, against Apiary: each method answers and its answer
 * validates against the SDK's own response type.
 */
describe("the swarms-ts SDK against Apiary", () => {
  let h: Harness;
  let client: SwarmsClient;

  before(async () => {
    h = await harness();
    const { key } = await h.newKey();
    client = swarmsClient(h.baseUrl, key);
  });

  it("health.check", async () => {
    expectSdkType("HealthCheckResponse", await client.health.check());
  });

  it("models.listAvailable", async () => {
    expectSdkType("ModelListAvailableResponse", await client.models.listAvailable());
  });

  it("swarms.checkAvailable", async () => {
    expectSdkType("SwarmCheckAvailableResponse", await client.swarms.checkAvailable());
  });

  it("swarms.getLogs", async () => {
    expectSdkType("SwarmGetLogsResponse", await client.swarms.getLogs());
  });

  it("client.rate.getLimits", async () => {
    expectSdkType("RateGetLimitsResponse", await client.client.rate.getLimits());
  });

  it("agent.run", async () => {
    const res = await client.agent.run({
      agent_config: { agent_name: "Scout", model_name: "gpt-4o-mini", max_loops: 1 },
      task: "Say hello.",
    });
    expectSdkType("AgentRunResponse", res);
  });

  it("agent.batch.run", async () => {
    const res = await client.agent.batch.run({
      body: [
        { agent_config: { agent_name: "A", model_name: "gpt-4o-mini" }, task: "one" },
        { agent_config: { agent_name: "B", model_name: "gpt-4o-mini" }, task: "two" },
      ],
    });
    expectSdkType("BatchRunResponse", res, "agent/batch");
  });

  it("swarms.run", async () => {
    const res = await client.swarms.run({
      name: "pair",
      swarm_type: "ConcurrentWorkflow",
      task: "Compare two fruits.",
      agents: [
        { agent_name: "A", model_name: "gpt-4o-mini" },
        { agent_name: "B", model_name: "gpt-4o-mini" },
      ],
    });
    expectSdkType("SwarmRunResponse", res);
    expect(res.swarm_type).to.equal("ConcurrentWorkflow");
  });

  it("swarms.batch.run", async () => {
    const res = await client.swarms.batch.run({
      body: [
        {
          swarm_type: "SequentialWorkflow",
          task: "one",
          agents: [{ agent_name: "A", model_name: "gpt-4o-mini" }],
        },
      ],
    });
    expectSdkType("BatchRunResponse", res, "swarms/batch");
  });

  it("client.marketplace.createAgent", async () => {
    const res = await client.client.marketplace.createAgent({
      name: `sdk-agent-${Date.now()}`,
      agent: "An agent that summarises text.",
      description: "Summaries",
      language: "en",
      use_cases: [{ title: "Summaries", description: "Short summaries" }],
      tags: "summary",
      requirements: [{ package: "none", installation: "none" }],
      is_free: true,
    } as never);
    expectSdkType("MarketplaceCreateAgentResponse", res);
  });
});
