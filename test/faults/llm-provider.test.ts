import { expect } from "chai";
import type { JournalEntry } from "../../scripts/llm-simulator/types";
import { markers, sendAgentRequest, type AgentRequestSpec } from "./support/agent-load";
import { useFaultStack } from "./support/fault-stack";
import { finalJobStatuses } from "./support/run-audit";

/** The settings under test: 1 s per call, 3 retries, Retry-After honoured up to 1.5 s. */
const LLM_SETTINGS = {
  LLM_TIMEOUT_MS: "1000",
  LLM_MAX_RETRIES: "3",
  LLM_RETRY_BASE_MS: "20",
  LLM_RETRY_MAX_DELAY_MS: "1500",
};
const ATTEMPTS = Number(LLM_SETTINGS.LLM_MAX_RETRIES) + 1;

describe("fault: a slow or failing LLM provider", function () {
  this.timeout(120_000);
  const stackOf = useFaultStack({ env: LLM_SETTINGS });

  const run = (spec: Omit<AgentRequestSpec, "marker">) =>
    sendAgentRequest(stackOf().apiUrl, stackOf().key, { marker: markers("llm", 1)[0], ...spec });
  const callsFor = async (marker: string): Promise<JournalEntry[]> =>
    (await stackOf().journal()).filter((e) =>
      JSON.stringify((e.body as { messages?: unknown })?.messages ?? "").includes(marker),
    );
  const gapsMs = (calls: JournalEntry[]) => calls.slice(1).map((c, i) => Date.parse(c.at) - Date.parse(calls[i].at));

  it("rides out a 429 storm shorter than its retries", async () => {
    const answer = await run({ llmArgs: { sim_error: 429, sim_error_times: ATTEMPTS - 1 } });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect((await callsFor(answer.marker)).map((c) => c.status)).to.deep.equal([429, 429, 429, 200]);
  });

  for (const status of [429, 503]) {
    it(`fails a run whose provider answers ${status} past its retries, with an error naming the status`, async () => {
      const answer = await run({ llmArgs: { sim_error: status, sim_error_times: 100 } });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(500);
      expect(answer.body).to.include({ code: "LLM_CALL_FAILED", agent: "Loaded" });
      expect(answer.body.detail)
        .to.include(`HTTP ${status}`)
        .and.match(new RegExp(`after ${ATTEMPTS} attempts`));
      expect((await callsFor(answer.marker)).map((c) => c.status)).to.deep.equal(Array(ATTEMPTS).fill(status));
      const statuses = await finalJobStatuses(stackOf().apiUrl, stackOf().key, [answer.body.job_id]);
      expect(statuses.get(answer.body.job_id)).to.equal("failed");
    });
  }

  it("fails a run whose provider is slower than the per-call timeout, saying it timed out", async () => {
    const answer = await run({ latencyMs: 5_000 });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(500);
    expect(answer.body).to.include({ code: "LLM_CALL_FAILED" });
    expect(answer.body.detail)
      .to.match(/timed out after 1 s/)
      .and.match(new RegExp(`after ${ATTEMPTS} attempts`));
    expect(await callsFor(answer.marker)).to.have.length(ATTEMPTS);
    // Each call gave up after its second, not after the provider's five.
    expect(answer.ms).to.be.below(ATTEMPTS * 1_000 + 3_000);
  });

  it("waits as long as Retry-After asks before retrying, up to the configured cap", async () => {
    const honoured = await run({ llmArgs: { sim_error: 429, sim_error_times: 1, sim_retry_after_ms: 800 } });
    expect(honoured.status, JSON.stringify(honoured.body)).to.equal(200);
    const [gap] = gapsMs(await callsFor(honoured.marker));
    expect(gap, "wait before the retry (ms)").to.be.at.least(800);

    const capped = await run({ llmArgs: { sim_error: 429, sim_error_times: 1, sim_retry_after_ms: 60_000 } });
    expect(capped.status, JSON.stringify(capped.body)).to.equal(200);
    const [cappedGap] = gapsMs(await callsFor(capped.marker));
    expect(cappedGap, "capped wait before the retry (ms)").to.be.within(1_500, 10_000);
  });

  it("stops retrying when the run's time budget runs out, and says why", async () => {
    // Four attempts 1.5 s apart would need 4.5 s; the run has 2.
    const answer = await run({
      llmArgs: { sim_error: 429, sim_error_times: 100, sim_retry_after_ms: 1_500 },
      budget: { timeout_seconds: 2 },
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(500);
    expect(answer.body.detail)
      .to.match(/time limit/)
      .and.include("HTTP 429");
    expect(answer.ms).to.be.below(4_000);
    expect((await callsFor(answer.marker)).length).to.be.below(ATTEMPTS);
  });
});
