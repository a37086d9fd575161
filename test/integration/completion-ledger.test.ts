import { randomUUID } from "node:crypto";
import { expect } from "chai";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { claimRunLease } from "../../shared/db/runs/run-leases";
import { cancelRun, completeRunWithLedger } from "../../shared/db/runs/run-results";
import { findRun } from "../../shared/db/runs/run-rows";
import { insertStep, loadSteps } from "../../shared/db/run-step-store";
import { sql } from "../../shared/db/sql";
import { createKey, createRun } from "../helpers/factories";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

/**
 * A run's completion carries the steps and charges its execution had not stored yet (its last
 * call's): they are stored in the completion's own statement, so the last call costs no statement
 * and no wait of its own, and the ledger becomes durable with the completion that bills it.
 */
describe("the completion stores the run's unsaved ledger rows with it", () => {
  let h: Harness;
  let key: string;
  let owner: { apiKeyId: string; userId: string };

  before(async () => {
    ({ h, key } = await harnessWithKey());
    const made = await createKey(h.deps.ds);
    owner = { apiKeyId: made.keyId, userId: made.userId };
  });

  /** The transaction that wrote each row: the run's last version, and its steps and charges. */
  async function writers(runId: string) {
    const [run] = await sql<{ xid: string }>(h.deps.ds, `SELECT xmin::text AS xid FROM runs WHERE id = $1`, [runId]);
    const steps = await sql<{ xid: string }>(
      h.deps.ds,
      `SELECT xmin::text AS xid FROM run_steps WHERE run_id = $1 ORDER BY seq`,
      [runId],
    );
    const charges = await sql<{ xid: string }>(
      h.deps.ds,
      `SELECT xmin::text AS xid FROM run_charges WHERE run_id = $1`,
      [runId],
    );
    return { run: run.xid, steps: steps.map((s) => s.xid), charges: charges.map((c) => c.xid) };
  }

  it("a single-agent run's step commits in the completion's transaction; its agent charge was stored as it was made", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Solo", system_prompt: "Be brief." }, task: "One line on bees." },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const written = await writers(res.body.job_id);
    expect(written.steps).to.have.length(1);
    expect(written.steps[0], "the step").to.equal(written.run);
    // A charge is stored when it is made, before the call it pays for: a retry after a crash
    // mid-call must find it, or the pools would count it twice.
    expect(written.charges).to.have.length(1);
    expect(written.charges[0], "the charge").to.not.equal(written.run);
  });

  it("a sequential swarm's earlier steps are stored on their own and its last with the completion, each once", async () => {
    const agent = (name: string) => ({ agent_name: name, system_prompt: `You are ${name}.` });
    const res = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: { swarm_type: "SequentialWorkflow", agents: ["A", "B", "C"].map(agent), task: "Relay a haiku." },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const runId = res.body.job_id;
    const steps = await loadSteps(h.deps.ds, runId);
    expect(steps.map((s) => s.agent_name)).to.deep.equal(["A", "B", "C"]);
    const written = await writers(runId);
    expect(written.steps.at(-1), "the last step").to.equal(written.run);
    expect(written.steps[0], "the first step, stored while B ran").to.not.equal(written.run);
  });

  /** A running run held by a fresh lease, and a step of it ready to store. */
  async function leasedRun() {
    const run = await createRun(h.deps.ds, { kind: "agent", owner });
    const lease = randomUUID();
    expect((await claimRunLease(h.deps.ds, run.id, lease, 30_000)).state).to.equal("claimed");
    const step = (seq: number, agentName: string): RunStep => ({
      run_id: run.id,
      seq,
      step_key: `#${seq}`,
      agent_name: agentName,
      role: "agent",
      input: [{ role: "user", content: "hi" }],
      output: { role: "assistant", content: `from ${agentName}` },
      model: "gpt-4o-mini",
      provider: "openai",
      input_tokens: 3,
      output_tokens: 4,
      cost: 0.0001,
      upstream_cost: null,
      started_at: new Date(),
      finished_at: new Date(),
      status: "finished",
    });
    const charge = { run_id: run.id, charge_key: "agent/run", kind: "agent" as const, agent_name: "A", amount: 0.01 };
    return { runId: run.id, lease, step, charge };
  }

  it("stores the carried rows once, keeps a step stored already as it was, and says which it stored", async () => {
    const { runId, lease, step, charge } = await leasedRun();
    await insertStep(h.deps.ds, step(0, "Earlier"), lease);
    const ledger = { steps: [step(0, "Again"), step(1, "Last")], charges: [charge] };
    const done = await completeRunWithLedger(
      h.deps.ds,
      runId,
      { output: { outputs: [] } as never, usage: null, ledger },
      lease,
    );
    expect(done.row).to.include({ id: runId, status: "succeeded" });
    expect(done.stored).to.deep.equal({ steps: [1], charges: ["agent/run"] });
    const steps = await loadSteps(h.deps.ds, runId);
    expect(steps.map((s) => [s.seq, s.agent_name, s.input_tokens])).to.deep.equal([
      [0, "Earlier", 3],
      [1, "Last", 3],
    ]);
    expect(steps[1].output).to.deep.equal({ role: "assistant", content: "from Last" });
    expect(steps[1].started_at).to.be.instanceOf(Date);
  });

  it("an execution that lost the lease stores neither the run's completion nor its rows", async () => {
    const { runId, step, charge } = await leasedRun();
    const stale = randomUUID();
    const refused = await completeRunWithLedger(
      h.deps.ds,
      runId,
      { output: { outputs: [] } as never, usage: null, ledger: { steps: [step(0, "Stale")], charges: [charge] } },
      stale,
    ).catch((err: Error) => err.name);
    expect(refused).to.equal("RunLeaseLostError");
    expect(await findRun(h.deps.ds, runId)).to.include({ status: "running", output: null });
    expect(await loadSteps(h.deps.ds, runId)).to.deep.equal([]);
    expect(await sql(h.deps.ds, `SELECT 1 FROM run_charges WHERE run_id = $1`, [runId])).to.deep.equal([]);
  });

  it("a run cancelled as it finished stays cancelled, and what it did is still stored for its bill", async () => {
    const { runId, lease, step, charge } = await leasedRun();
    const row = await findRun(h.deps.ds, runId);
    await cancelRun(h.deps.ds, row!.job_id, owner.userId);
    const ledger = { steps: [step(0, "Finishing")], charges: [charge] };
    const done = await completeRunWithLedger(
      h.deps.ds,
      runId,
      { output: { outputs: [] } as never, usage: null, ledger },
      lease,
    );
    expect(done.row).to.equal(null);
    expect(done.stored).to.deep.equal({ steps: [0], charges: ["agent/run"] });
    expect(await findRun(h.deps.ds, runId)).to.include({ status: "cancelled" });
    expect((await loadSteps(h.deps.ds, runId)).map((s) => s.agent_name)).to.deep.equal(["Finishing"]);
  });
});
