import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { config } from "../../shared/config";
import type { EmbeddingRunRequest } from "../../shared/contracts/embedding-run";
import type { AgentRun, EmbeddingRun, Run } from "../../shared/db/entities/run.entity";
import { findRun } from "../../shared/db/runs/run-rows";
import { loadSteps } from "../../shared/db/run-step-store";
import { logger } from "../../shared/logger";
import { CancelListener } from "../../shared/queues/cancellation";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { handleAgentRun } from "../../workers/handlers/agent-run.handler";
import { handleEmbedding } from "../../workers/handlers/embedding.handler";
import type { HandlerContext } from "../../workers/handlers/handler";
import { agentRequest, createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { captureLogs } from "../helpers/log-capture";

/**
 * Another worker's claim of `runId` for `owner`, made while this process is stalled: a child
 * process writes it while this one's event loop waits blocked, so no lease renewal or write of the
 * stalled execution can run meanwhile.
 */
function takeOverWhileStalled(runId: string, owner: string): void {
  const claim = `UPDATE runs SET lease_owner = $1, lease_until = now() + interval '1 minute' WHERE id = $2`;
  const script = `const { Client } = require("pg");
    const c = new Client({ connectionString: process.env.URL });
    c.connect().then(() => c.query(${JSON.stringify(claim)}, [process.env.OWNER, process.env.RUN])).then(() => c.end());`;
  execFileSync(process.execPath, ["-e", script], {
    env: { ...process.env, URL: config.databaseUrl, OWNER: owner, RUN: runId },
  });
}

/**
 * Job handlers called directly with a payload, as a worker would call them, for runs the factories
 * store (nothing is queued): what they leave in the database is the assertion.
 */
describe("job handlers called directly", () => {
  let h: Harness;
  let redis: RedisClient;
  let cancels: CancelListener;
  let announced: (Run | null)[];

  /** A worker's context for one job, recording what the handler announces. */
  function context(): HandlerContext {
    return {
      ds: h.deps.ds,
      logger: logger.child({ test: "handlers" }),
      cancels,
      redis,
      announce: (row) => announced.push(row),
      finalAttempt: true,
    };
  }

  before(async () => {
    h = await harness();
    redis = createRedis("request");
    cancels = new CancelListener(createRedis("blocking"));
    await cancels.start();
  });

  beforeEach(() => {
    announced = [];
  });

  after(async () => {
    await cancels.close();
    redis.disconnect();
  });

  describe("agent-run", () => {
    it("runs a queued agent run against the LLM simulator and records its output, usage and step", async () => {
      const marker = `handler-${randomUUID()}`;
      h.sim.script({ contains: marker, reply: "The scripted answer" });
      const run = await createRun(h.deps.ds, {
        kind: "agent",
        request: agentRequest({ agent_config: { agent_name: "Handled" }, task: `Answer ${marker}` }),
      });

      const result = await handleAgentRun({ runId: run.id }, context());

      expect(result).to.deep.equal({ runId: run.id });
      const row = (await findRun(h.deps.ds, run.id)) as AgentRun;
      expect(row.status).to.equal("succeeded");
      expect(row.attempts).to.equal(1);
      expect(row.error).to.equal(null);
      expect(row.output).to.deep.equal({ outputs: [{ role: "Handled", content: "The scripted answer" }] });
      expect(row.usage?.input_tokens).to.be.greaterThan(0);
      expect(row.usage?.output_tokens).to.be.greaterThan(0);
      expect(row.usage?.total_tokens).to.equal((row.usage?.input_tokens ?? 0) + (row.usage?.output_tokens ?? 0));
      expect(row.finished_at).to.be.an.instanceOf(Date);
      expect(row.execution_time).to.be.a("number").and.at.least(0);

      const steps = await loadSteps(h.deps.ds, run.id);
      expect(steps).to.have.length(1);
      expect(steps[0]).to.include({ seq: 0, agent_name: "Handled", input_tokens: row.usage?.input_tokens });
      expect(JSON.stringify(steps[0].output)).to.include("The scripted answer");

      expect(announced.map((r) => r?.status)).to.deep.equal(["succeeded"]);
      expect(announced[0]?.id).to.equal(run.id);
    });

    it("fails the run with the provider's refusal and stores no step", async () => {
      const run = await createRun(h.deps.ds, {
        kind: "agent",
        request: agentRequest({ agent_config: { agent_name: "Refused", llm_args: { sim_error: 400 } } }),
      });

      await handleAgentRun({ runId: run.id }, context());

      const row = await findRun(h.deps.ds, run.id);
      expect(row?.status).to.equal("failed");
      expect(row?.output).to.equal(null);
      expect(row?.error).to.include({ code: "LLM_CALL_FAILED", agent: "Refused" });
      expect(await loadSteps(h.deps.ds, run.id)).to.deep.equal([]);
      expect(announced.map((r) => r?.status)).to.deep.equal(["failed"]);
    });

    it("stops without storing its step or result when another delivery took the run over while it stalled", async () => {
      const marker = `handler-${randomUUID()}`;
      h.sim.script({ contains: marker, reply: "The stalled answer" });
      const run = await createRun(h.deps.ds, {
        kind: "agent",
        request: agentRequest({ agent_config: { agent_name: "Stalled" }, task: `Answer ${marker}` }),
      });
      const current = randomUUID();
      let stalls = 0;
      // The job's progress is reported the moment the LLM call finishes, before its step is stored.
      const job = { progress: () => stalls++ === 0 && takeOverWhileStalled(run.id, current), log: () => undefined };
      const logs = captureLogs();
      let result;
      try {
        result = await handleAgentRun({ runId: run.id }, { ...context(), job });
      } finally {
        logs.stop();
      }

      expect(stalls).to.equal(1);
      expect(result).to.deep.equal({ runId: run.id });
      expect(await findRun(h.deps.ds, run.id)).to.include({ status: "running", lease_owner: current, output: null });
      expect(await loadSteps(h.deps.ds, run.id)).to.deep.equal([]);
      expect(announced).to.deep.equal([]);
      const lines = logs.lines.filter((l) => l.runId === run.id).map((l) => l.msg);
      expect(lines).to.deep.equal(["run taken over by another delivery; this one stops without writing"]);
    });

    it("leaves a finished run alone when its job is delivered again", async () => {
      const output = { outputs: [{ role: "Done", content: "already answered" }] };
      const run = await createRun(h.deps.ds, { kind: "agent", status: "succeeded", output });
      const journalBefore = h.sim.journal.length;

      const result = await handleAgentRun({ runId: run.id }, context());

      // Its job ends as the run did, saying so (the run recorded no usage).
      expect(result).to.deep.equal({ runId: run.id, status: "succeeded", output: "already answered" });
      const row = await findRun(h.deps.ds, run.id);
      expect(row?.status).to.equal("succeeded");
      expect(row?.output).to.deep.equal(output);
      expect(row?.attempts).to.equal(run.attempts);
      expect(h.sim.journal.length).to.equal(journalBefore);
      expect(announced).to.deep.equal([]);
    });
  });
  describe("embedding", () => {
    it("makes its one call as a recorded step; a retried job replays it, calling and billing nothing again", async () => {
      const marker = `embed-${randomUUID()}`;
      const request: EmbeddingRunRequest = {
        model: "text-embedding-3-small",
        input: [marker, `${marker} 2`],
        encoding_format: "float",
        dimensions: 8,
        input_tokens: 20,
        stream: false,
      };
      const run = await createRun(h.deps.ds, { kind: "embedding", request });
      const calls = () =>
        h.sim.embeddingJournal.filter((e: any) => JSON.stringify(e.body?.input ?? "").includes(marker)).length;

      await handleEmbedding({ runId: run.id }, context());
      const first = (await findRun(h.deps.ds, run.id)) as EmbeddingRun;
      expect(first.status).to.equal("succeeded");
      expect(first.output?.embeddings).to.have.length(2);
      expect(Buffer.from(first.output!.embeddings[0], "base64")).to.have.length(8 * 4);
      expect(first.usage?.input_tokens).to.be.above(0);
      expect(calls()).to.equal(1);

      // As if the worker had died after the step was stored and before the run was completed: the
      // job's retry finds the run open again, with its step.
      await h.deps.ds.query(
        `UPDATE runs SET status = 'running', output = NULL, usage = NULL, finished_at = NULL, lease_owner = NULL, lease_until = NULL WHERE id = $1`,
        [run.id],
      );
      await handleEmbedding({ runId: run.id }, context());
      const retried = (await findRun(h.deps.ds, run.id)) as EmbeddingRun;
      expect(retried).to.include({ status: "succeeded", attempts: 2 });
      expect(retried.output).to.deep.equal(first.output);
      expect(retried.usage).to.deep.equal(first.usage);
      expect(calls()).to.equal(1);
      const steps = await loadSteps(h.deps.ds, run.id);
      expect(steps.map((step) => [step.role, step.status, step.input_tokens])).to.deep.equal([
        ["embedding", "finished", first.usage!.input_tokens],
      ]);
    });
    it("checks the call's price and tokens against the run's budget before making it: over either, the run fails and nothing is sent", async () => {
      const marker = `embed-budget-${randomUUID()}`;
      const calls = () =>
        h.sim.embeddingJournal.filter((e: any) => JSON.stringify(e.body?.input ?? "").includes(marker)).length;
      const request = (budget: EmbeddingRunRequest["budget"]): EmbeddingRunRequest => ({
        model: "text-embedding-3-small",
        input: marker,
        encoding_format: "float",
        input_tokens: 20_000,
        stream: false,
        budget,
      });
      const cost = (20_000 / 1e6) * config.pricing.embeddingPerMTok;
      const tooDear = await createRun(h.deps.ds, { kind: "embedding", request: request({ max_cost: cost / 2 }) });
      await handleEmbedding({ runId: tooDear.id }, context());
      const dear = await findRun(h.deps.ds, tooDear.id);
      expect(dear?.status).to.equal("failed");
      expect(dear?.error).to.include({ code: "BUDGET_EXCEEDED" });
      expect(dear?.error?.message).to.match(/its embeddings call \(\$[\d.]+\) does not fit/);

      const tooLong = await createRun(h.deps.ds, { kind: "embedding", request: request({ max_tokens: 10_000 }) });
      await handleEmbedding({ runId: tooLong.id }, context());
      const long = await findRun(h.deps.ds, tooLong.id);
      expect(long?.error).to.include({ code: "BUDGET_EXCEEDED" });
      expect(long?.error?.message).to.match(/limit of 10000 tokens/);
      expect(calls()).to.equal(0);
    });
  });
});
