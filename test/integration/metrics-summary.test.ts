import { expect } from "chai";
import type { RunStatus } from "../../shared/db/entities/run.entity";
import { agentRequest, createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

const HOUR = 3_600_000;

/**
 * `GET /v1/metrics/summary`: an account's headline figures in the hosted API's field names:
 * distinct agent configurations (the count `GET /v1/agents/list` gives) and completion calls in
 * all, succeeded, in the last 24 hours and 7 days, counting batch items but not batch parents or
 * token launches; a stranger's runs never count.
 */
describe("GET /v1/metrics/summary", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  const summary = (key: string) => request(h.baseUrl, "GET", "/v1/metrics/summary", { key });

  it("counts the account's completion calls by status and age, and its distinct agents", async () => {
    const a = await h.newKey();
    const owner = { apiKeyId: a.keyId, userId: a.userId };
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
    const run = (status: RunStatus, hoursAgo: number, agentName = "Counter") =>
      createRun(h.deps.ds, {
        kind: "agent",
        owner,
        status,
        queuedAt: ago(hoursAgo),
        request: agentRequest({ agent_config: { agent_name: agentName } }),
      });
    await run("succeeded", 1);
    await run("failed", 2);
    await run("succeeded", 30, "Other"); // outside the last 24 hours
    await run("cancelled", 24 * 10); // outside the last 7 days
    await run("succeeded", 24 * 400, "Old"); // lifetime only
    const batch = await createRun(h.deps.ds, { kind: "agent_batch", owner, status: "succeeded", queuedAt: ago(3) });
    for (const item of [0, 1])
      await createRun(h.deps.ds, {
        kind: "agent",
        owner,
        status: "succeeded",
        queuedAt: ago(3),
        parentId: batch.id,
        itemIndex: item,
        request: agentRequest({ agent_config: { agent_name: "Counter" } }),
      });
    await createRun(h.deps.ds, { kind: "swarm", owner, status: "running", queuedAt: ago(5) }); // "Factory agent"
    await createRun(h.deps.ds, { kind: "token_launch", owner, status: "succeeded", queuedAt: ago(1) });

    const res = await summary(a.key);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(new Date(res.body.timestamp).getTime()).to.be.closeTo(Date.now(), 60_000);
    expect({ ...res.body, timestamp: undefined }).to.deep.equal({
      success: true,
      unique_agents: 4, // Counter, Other, Old, and the swarm's Factory agent
      total_completion_calls: 8,
      successful_completions: 5,
      completions_last_24h: 5,
      completions_last_7d: 6,
      total_tokens: 0, // these runs were stored without calls or charges in the ledger
      total_cost: 0,
      timestamp: undefined,
    });
    const listed = await request(h.baseUrl, "GET", "/v1/agents/list", { key: a.key });
    expect(listed.body.count).to.equal(res.body.unique_agents);
  });

  it("shows a fresh account zeros, whatever others did", async () => {
    const b = await h.newKey();
    await createRun(h.deps.ds, { kind: "agent", status: "succeeded" }); // someone else's
    const res = await summary(b.key);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({
      success: true,
      unique_agents: 0,
      total_completion_calls: 0,
      successful_completions: 0,
      completions_last_24h: 0,
      completions_last_7d: 0,
    });
  });

  it("counts a completion made through the API at once", async () => {
    const c = await h.newKey();
    const made = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: c.key,
      body: { agent_config: { agent_name: "Live", model_name: "gpt-4o-mini" }, task: "Hello." },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    const res = await summary(c.key);
    expect(res.body).to.deep.include({
      unique_agents: 1,
      total_completion_calls: 1,
      successful_completions: 1,
      completions_last_24h: 1,
      completions_last_7d: 1,
    });
  });
});
