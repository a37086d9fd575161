import { expect } from "chai";
import OpenAI from "openai";
import { config } from "../../shared/config";
import { APIError } from "../vendor/swarms-ts/src/core/error";
import SwarmsClient from "../vendor/swarms-ts/src/index";
import { countingFetch, freshAccount, type Account } from "../helpers/client-attempts";
import { harness, type Harness } from "../helpers/harness";
import { eventually } from "../helpers/http";
import { callsMentioning, uniqueMarker } from "../helpers/swarm";

/**
 * The official clients (`swarms-ts`, `openai`) at their default retry settings: whatever their
 * retries do, one call is one run and one charge. A run that fails is answered once (the answer
 * says a retry cannot help). A run longer than the client's time-out: the retries after the
 * client gave up answer from the run the first attempt started, each before the time-out the
 * client showed (or announced).
 */
describe("the official clients' retries: one call, one run", function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  afterEach(() => h.sim.clearScripts());

  /** swarms-ts with its default retries (`maxRetries` left out) and the given time-out. */
  function swarms(account: Account, timeout?: number) {
    const counted = countingFetch();
    const client = new SwarmsClient({ apiKey: account.key, baseURL: h.baseUrl, fetch: counted.fetch, timeout });
    return { client, attempts: counted.attempts, outcomes: counted.outcomes };
  }

  /** The openai SDK with its default retries (`maxRetries` left out) and the given time-out. */
  function openai(account: Account, timeout?: number) {
    const counted = countingFetch();
    const client = new OpenAI({ apiKey: account.key, baseURL: `${h.baseUrl}/v1`, fetch: counted.fetch, timeout });
    return { client, attempts: counted.attempts, outcomes: counted.outcomes };
  }

  /** An `agent.run` body whose provider call `llmArgs` steers, with a marker of its own. */
  function agentRun(name: string, llmArgs: Record<string, unknown>) {
    const marker = uniqueMarker(name);
    const agent_config = { agent_name: name, model_name: "gpt-4o-mini", llm_args: llmArgs };
    return { marker, body: { agent_config, task: `Say something about ${marker}.` } as never };
  }

  /** Waits for every run of the account to end. */
  const allEnded = (account: Account) =>
    eventually(
      async () =>
        (await account.runs()).every((r) => r.status !== "queued" && r.status !== "running") ? true : undefined,
      30_000,
    );

  describe("a run whose provider call fails", () => {
    it("swarms-ts agent.run: the failure once, one failed run", async () => {
      const account = await freshAccount(h);
      const { client, attempts } = swarms(account);
      const { body } = agentRun("Broken", { sim_error: 500 });
      const err = await client.agent.run(body).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(APIError);
      const { status, headers, error } = err as APIError;
      const runs = await account.runs();
      expect(runs.map((r) => r.status)).to.deep.equal(["failed"]);
      expect(status).to.equal(500);
      expect(error).to.include({ code: "LLM_CALL_FAILED" });
      expect(headers?.get("x-should-retry")).to.equal("false");
      expect(attempts, "the client did not retry").to.deep.equal(["0"]);
      expect(runs[0].id).to.equal((error as { job_id: string }).job_id);
      expect(await account.billed(), "one agent's charge, once").to.equal(config.pricing.perAgent);
    });

    it("openai chat.completions.create: the failure once, one failed run", async () => {
      const account = await freshAccount(h);
      const { client, attempts } = openai(account);
      const marker = uniqueMarker("fail-openai");
      h.sim.script({ contains: marker, error: 500 });
      const err = await client.chat.completions
        .create({ model: "gpt-4o-mini", messages: [{ role: "user", content: `About ${marker}` }] })
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(OpenAI.InternalServerError);
      const failure = err as InstanceType<typeof OpenAI.InternalServerError>;
      expect((await account.runs()).map((r) => r.status)).to.deep.equal(["failed"]);
      expect(failure.code).to.equal("llm_call_failed");
      expect(failure.headers?.get("x-should-retry")).to.equal("false");
      expect(attempts).to.deep.equal(["0"]);
      expect(await account.billed(), "one agent's charge, once").to.equal(config.pricing.perAgent);
    });
  });

  describe("a run longer than the client's time-out", () => {
    it("swarms-ts agent.run: the retry gets the first attempt's run; one run, billed once", async () => {
      const account = await freshAccount(h);
      const { client, attempts, outcomes } = swarms(account, 2_000);
      const { body, marker } = agentRun("Slow", { sim_latency_ms: 3_000 });
      const res = await client.agent.run(body);
      expect(res).to.include({ success: true });
      expect(attempts).to.deep.equal(["0", "1"]);
      expect(outcomes).to.deep.equal(["gave up", 200]);
      const runs = await account.runs();
      expect(runs.map((r) => [r.id, r.status])).to.deep.equal([[res.job_id, "succeeded"]]);
      expect(await account.charges()).to.equal(1);
      expect(callsMentioning(h, marker)).to.have.length(1);
    });

    it("openai chat.completions.create: the retry gets the first attempt's run; one run, billed once", async () => {
      const account = await freshAccount(h);
      const { client, attempts, outcomes } = openai(account, 2_000);
      const marker = uniqueMarker("slow-openai");
      h.sim.script({ contains: marker, latency_ms: 3_000 });
      const completion = await client.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: `About ${marker}` }],
      });
      expect(completion.choices[0].message.content).to.be.a("string").and.not.empty;
      expect(attempts).to.deep.equal(["0", "1"]);
      expect(outcomes).to.deep.equal(["gave up", 200]);
      expect((await account.runs()).map((r) => r.status)).to.deep.equal(["succeeded"]);
      expect(await account.charges()).to.equal(1);
      expect(callsMentioning(h, marker)).to.have.length(1);
    });

    it("swarms-ts agent.batch.run: the retried batch answers from the first attempt's batch", async () => {
      const account = await freshAccount(h);
      const { client, attempts } = swarms(account, 2_000);
      const marker = uniqueMarker("slow-batch");
      const item = (n: number) => ({
        agent_config: { agent_name: `Item${n}`, model_name: "gpt-4o-mini", llm_args: { sim_latency_ms: 3_000 } },
        task: `Item ${n} about ${marker}.`,
      });
      const res = await client.agent.batch.run({ body: [item(1), item(2)] as never });
      expect(res.total_requests).to.equal(2);
      expect(attempts).to.deep.equal(["0", "1"]);
      const runs = await account.runs();
      expect(runs.filter((r) => r.parent_id === null).map((r) => r.id)).to.deep.equal([res.batch_id]);
      expect(runs).to.have.length(3);
      expect(await account.charges()).to.equal(2);
      expect(callsMentioning(h, marker)).to.have.length(2);
    });

    it("swarms-ts: each retry is answered before the client's time-out; the last one's error names the job", async () => {
      const account = await freshAccount(h);
      // 2 s, well above MIN_PATIENCE_MS: the client's timer starts before the request reaches the
      // service, so a 1 s time-out is seen as a little under a second and says nothing.
      const { client, attempts, outcomes } = swarms(account, 2_000);
      // Long enough for three attempts and the 504's 5 s Retry-After between the last two.
      const { body } = agentRun("Slower", { sim_latency_ms: 14_000 });
      const err = await client.agent.run(body).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(APIError);
      // The first attempt showed how long the client waits; its retries were answered within that.
      expect(attempts).to.deep.equal(["0", "1", "2"]);
      expect(outcomes).to.deep.equal(["gave up", 504, 504]);
      const { status, error, headers } = err as APIError;
      expect(status).to.equal(504);
      const [run] = await account.runs();
      expect(error).to.include({ code: "RUN_TIMEOUT", job_id: run.id });
      expect(headers?.get("location")).to.equal(`/v1/jobs/${run.id}`);
      await allEnded(account);
      expect((await account.runs()).map((r) => r.status)).to.deep.equal(["succeeded"]);
      expect(await account.charges()).to.equal(1);
    });

    it("swarms-ts with a request's own time-out (X-Stainless-Timeout): answered before it, never timed out", async () => {
      const account = await freshAccount(h);
      const { client, attempts, outcomes } = swarms(account);
      const { body } = agentRun("Announced", { sim_latency_ms: 3_000 });
      const res = await client.agent.run(body, { timeout: 2_000 });
      expect(res).to.include({ success: true });
      expect(attempts).to.deep.equal(["0", "1"]);
      expect(outcomes).to.deep.equal([504, 200]);
      expect((await account.runs()).map((r) => r.id)).to.deep.equal([res.job_id]);
      expect(await account.charges()).to.equal(1);
    });
  });
});
