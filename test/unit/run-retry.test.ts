import { expect } from "chai";
import { retryRefusal } from "../../api/runs/run-retry";
import { config } from "../../shared/config";
import type { RetryCandidate } from "../../shared/db/runs/run-retries";

const reasonOf = (...args: Parameters<typeof retryRefusal>) => retryRefusal(...args)?.reason ?? null;

describe("a retry of a run (a client's or an operator's)", () => {
  const hour = 3_600_000;
  const failed = (extra: Partial<RetryCandidate> = {}): RetryCandidate =>
    ({
      id: "7c2a0000-0000-4000-8000-000000000001",
      kind: "swarm",
      status: "failed",
      parent_id: null,
      api_key_id: "0b7e0000-0000-4000-8000-00000000ab12",
      key_revoked: false,
      queued_at: new Date(Date.now() - hour),
      request: { budget: { timeout_seconds: 900 } },
      ...extra,
    }) as RetryCandidate;

  it("allows a failed run of a live key, requested recently enough", () => {
    expect(reasonOf(failed())).to.equal(null);
    expect(reasonOf(failed({ kind: "agent" }))).to.equal(null);
  });

  it("refuses runs that did not fail, launches, batches and their items, runs without a key and revoked keys", () => {
    expect(reasonOf(failed({ status: "succeeded" }))).to.match(/^The run succeeded/);
    expect(reasonOf(failed({ status: "cancelled" }))).to.match(/cancelled by its client/);
    expect(reasonOf(failed({ status: "running" }))).to.equal("The run has not ended (it is running)");
    expect(reasonOf(failed({ status: "queued" }))).to.equal("The run has not ended (it is queued)");
    expect(reasonOf(failed({ kind: "token_launch" }))).to.match(/^A token launch is not retried/);
    expect(reasonOf(failed({ kind: "prompt_tokenize" }))).to.match(/^A token launch is not retried/);
    expect(reasonOf(failed({ kind: "swarm_batch" }))).to.match(/^A batch is not retried/);
    expect(reasonOf(failed({ parent_id: "7c2a0000-0000-4000-8000-000000000002" }))).to.match(
      /^A batch item is not retried/,
    );
    expect(reasonOf(failed({ api_key_id: null }))).to.match(/^The run has no API key/);
    expect(reasonOf(failed({ key_revoked: true }))).to.match(/revoked/);
    expect(retryRefusal(failed({ status: "running" }))?.code).to.equal("JOB_NOT_FINISHED");
    expect(retryRefusal(failed({ status: "succeeded" }))?.code).to.equal("JOB_NOT_FAILED");
    expect(retryRefusal(failed({ kind: "swarm_batch" }))?.code).to.equal("JOB_NOT_RETRYABLE");
  });

  it("refuses a run whose new attempt could end more than a day after its request (the usage report's window)", () => {
    const now = Date.now();
    const queuedAgo = (ms: number, seconds?: number) =>
      failed({
        queued_at: new Date(now - ms),
        request: seconds === undefined ? {} : { budget: { timeout_seconds: seconds } },
      } as Partial<RetryCandidate>);
    expect(reasonOf(queuedAgo(24 * hour - 901_000, 900), now)).to.equal(null);
    expect(reasonOf(queuedAgo(24 * hour - 899_000, 900), now)).to.match(/too old/);
    // Without a stored time limit, the service's longest counts.
    expect(reasonOf(queuedAgo(24 * hour - config.runLimits.maxSeconds * 1_000 + 1_000), now)).to.match(/too old/);
  });
});
