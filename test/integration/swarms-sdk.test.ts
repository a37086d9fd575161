import { expect } from "chai";
import type SwarmsClient from "../vendor/swarms-ts/src/index";
import { harness, type Harness } from "../helpers/harness";
import { searchServerForSuite } from "../helpers/search-server";
import { expectSdkType, sdkCalls, swarmsClient } from "../helpers/swarms-sdk";

/**
 * The hosted API's TypeScript SDK, unchanged, against Apiary: every method answers and its answer
 * validates against the SDK's own response type (each area's tests go deeper into what it does).
 */
describe("the swarms-ts SDK against Apiary", function () {
  this.timeout(60_000);
  let h: Harness;
  let client: SwarmsClient;
  searchServerForSuite(); // the SDK tests reach auto_search too
  /** `METHOD /path` of every request the client sent. */
  const sent = new Set<string>();
  const marker = `sdk-${Date.now()}`;

  before(async () => {
    h = await harness();
    const { key } = await h.newKey();
    client = swarmsClient(h.baseUrl, key, sent);
  });

  it("getRoot", async () => {
    expect(await client.getRoot()).to.include({ name: "Apiary" });
  });

  it("agent.list", async () => {
    expectSdkType("AgentListResponse", await client.agent.list(), "agent/agent");
  });

  it("client.tools.listAvailable", async () => {
    expectSdkType("ToolListAvailableResponse", await client.client.tools.listAvailable(), "client/tools");
  });

  it("reasoningAgents.listTypes and createCompletion", async () => {
    expectSdkType("ReasoningAgentListTypesResponse", await client.reasoningAgents.listTypes(), "reasoning-agents");
    const res = await client.reasoningAgents.createCompletion({
      swarm_type: "reasoning-duo",
      task: "Why is the sky blue?",
    });
    expectSdkType("ReasoningAgentCreateCompletionResponse", res, "reasoning-agents");
  });

  it("client.autoSwarmBuilder.listExecutionTypes and createCompletion", async () => {
    const types = await client.client.autoSwarmBuilder.listExecutionTypes();
    expectSdkType("AutoSwarmBuilderListExecutionTypesResponse", types, "client/auto-swarm-builder");
    h.sim.script({
      contains: `asb ${marker}`,
      reply: JSON.stringify({
        name: "Pair",
        description: "Researches, then writes",
        swarm_type: "SequentialWorkflow",
        agents: {
          Researcher: { description: "Finds facts", system_prompt: "You research." },
          Writer: { description: "Writes it up", system_prompt: "You write." },
        },
      }),
    });
    const res = await client.client.autoSwarmBuilder.createCompletion({ task: `asb ${marker}` });
    expectSdkType("AutoSwarmBuilderCreateCompletionResponse", res, "client/auto-swarm-builder");
    expect(res.success).to.equal(true);
  });

  it("client.advancedResearch.createCompletion and batch.createCompletion", async () => {
    const one = await client.client.advancedResearch.createCompletion({ task: "Uses of beeswax", config: null });
    expectSdkType("AdvancedResearchCreateCompletionResponse", one, "client/advanced-research/advanced-research");
    const many = await client.client.advancedResearch.batch.createCompletion({
      input_schemas: [{ task: "Uses of propolis", config: { name: "propolis" } }],
    });
    expectSdkType("BatchCreateCompletionResponse", many, "client/advanced-research/batch");
  });

  it("client.graphWorkflow.executeWorkflow", async () => {
    const res = await client.client.graphWorkflow.executeWorkflow({
      agents: [
        { agent_name: "First", model_name: "gpt-4o-mini" },
        { agent_name: "Second", model_name: "gpt-4o-mini" },
      ],
      edges: [{ source: "First", target: "Second" }],
      task: "Outline, then write.",
    });
    expectSdkType("GraphWorkflowExecuteWorkflowResponse", res, "client/graph-workflow");
  });

  it("client.batchedGridWorkflow.completeWorkflow", async () => {
    const res = await client.client.batchedGridWorkflow.completeWorkflow({
      agent_completions: [{ agent_name: "Solver", model_name: "gpt-4o-mini" }],
      tasks: ["one", "two"],
    });
    expectSdkType("BatchedGridWorkflowCompleteWorkflowResponse", res, "client/batched-grid-workflow");
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

  it("sent every one of the SDK's 21 calls (all of them answered above)", () => {
    expect([...sent].sort()).to.deep.equal([...new Set(sdkCalls())].sort());
  });
});
