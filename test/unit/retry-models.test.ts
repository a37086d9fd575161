import { expect } from "chai";
import type { Run, RunRetry } from "../../shared/db/entities/run.entity";
import { failedAgentNames, withRetryModels } from "../../shared/runs/retry-models";

describe("the model a client's retry gives the agents that failed", () => {
  const spec = (name: string, model = "gpt-4.1", extra: Record<string, unknown> = {}) => ({
    agent_name: name,
    model_name: model,
    ...extra,
  });
  const retry = (model: string, agents: string[]): RunRetry =>
    ({
      retried_at: "2026-01-01T00:00:00Z",
      status: "failed",
      by: "client",
      model: { model_name: model, agents },
    }) as RunRetry;
  const swarm = (retries: RunRetry[] = [], extra: Partial<Run> = {}) =>
    ({
      kind: "swarm",
      request: { agents: [spec("A"), spec("B", "gpt-4.1", { handoffs: [spec("C")] })] },
      retries,
      agents: null,
      error: null,
      ...extra,
    }) as unknown as Run;
  const modelsOf = (run: Run) => {
    const agents = (run.request as { agents: { model_name: string; handoffs?: { model_name: string }[] }[] }).agents;
    return [agents[0].model_name, agents[1].model_name, agents[1].handoffs![0].model_name];
  };

  it("applies each retry's model to the agents it names, handoffs included, later retries over earlier ones", () => {
    expect(modelsOf(withRetryModels(swarm()))).to.deep.equal(["gpt-4.1", "gpt-4.1", "gpt-4.1"]);
    expect(modelsOf(withRetryModels(swarm([retry("m1", ["B", "C"])])))).to.deep.equal(["gpt-4.1", "m1", "m1"]);
    const twice = swarm([retry("m1", ["B", "C"]), retry("m2", ["C"])]);
    expect(modelsOf(withRetryModels(twice))).to.deep.equal(["gpt-4.1", "m1", "m2"]);
    expect(modelsOf(twice)).to.deep.equal(["gpt-4.1", "gpt-4.1", "gpt-4.1"]); // the stored request is left as sent
  });

  it("applies to an agent run's agent", () => {
    const run = {
      kind: "agent",
      request: { agent_config: spec("Solo") },
      retries: [retry("m1", ["Solo"])],
    } as unknown as Run;
    expect((withRetryModels(run).request as { agent_config: { model_name: string } }).agent_config.model_name).to.equal(
      "m1",
    );
  });

  it("names the request's agents that failed, or the one the error blames", () => {
    const outcomes = [
      { agent: "A", status: "succeeded", output: "x" },
      { agent: "C", status: "failed", output: null, error: "boom" },
      { agent: "Director", status: "failed", output: null, error: "an internal agent" },
    ];
    expect(failedAgentNames(swarm([], { agents: outcomes } as Partial<Run>))).to.deep.equal(["C"]);
    const blamed = swarm([], { error: { message: "x", code: "AGENT_FAILED", agent: "B" } } as Partial<Run>);
    expect(failedAgentNames(blamed)).to.deep.equal(["B"]);
  });
});
