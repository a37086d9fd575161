import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { config } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { ProcessDeployment } from "../helpers/process-deployment";
import { REFUSAL_SITES, type Probe, type Refusal, type RefusalCase } from "../helpers/worker-refusals";

/**
 * Every request that a worker would refuse (test/helpers/worker-refusals.ts) is refused by the API
 * instead, on every endpoint it can reach: the documented 4xx, no run stored, no LLM call made.
 */

type Endpoint = "agent completion" | "agent batch" | "swarm completion" | "swarm batch" | "reasoning";
const PATHS: Record<Endpoint, string> = {
  "agent completion": "/v1/agent/completions",
  "agent batch": "/v1/agent/batch/completions",
  "swarm completion": "/v1/swarm/completions",
  "swarm batch": "/v1/swarm/batch/completions",
  reasoning: "/v1/reasoning-agent/completions",
};
/** A run that was wrongly stored answers within this wait instead of holding the test for SYNC_WAIT_MS. */
const PREFER = { prefer: "wait=5" };

/** joi's label for a path, as a swarm batch slot's `detail` spells it. */
function label(path: (string | number)[]): string {
  return path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
}

/** The endpoints a case reaches, each with its body and the refusal as that endpoint spells it. */
function probes(c: RefusalCase): { endpoint: Endpoint; probe: Probe; batch: boolean }[] {
  return [
    ...(c.agent
      ? [
          { endpoint: "agent completion" as const, probe: c.agent, batch: false },
          { endpoint: "agent batch" as const, probe: c.agent, batch: true },
        ]
      : []),
    ...(c.swarm
      ? [
          { endpoint: "swarm completion" as const, probe: c.swarm, batch: false },
          { endpoint: "swarm batch" as const, probe: c.swarm, batch: true },
        ]
      : []),
    ...(c.reasoning ? [{ endpoint: "reasoning" as const, probe: c.reasoning, batch: false }] : []),
  ];
}

/** What the agent and swarm completions and the agent batch answer: the `/v1` error body (422 entries located, the agent batch's inside the item). */
function expectRefused(res: { status: number; body: any }, refused: Refusal, itemIndex: number | null): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(refused.status);
  expect(res.body.status_code).to.equal(refused.status);
  if (refused.status === 422) {
    const loc = ["body", ...(itemIndex === null ? [] : [itemIndex]), ...refused.at];
    expect(res.body.code).to.equal("VALIDATION_ERROR");
    expect(
      res.body.detail.map((d: any) => d.loc),
      JSON.stringify(res.body.detail),
    ).to.deep.include(loc);
  } else {
    expect(res.body.code).to.equal(refused.code);
    expect(res.body.detail).to.match(refused.detail);
  }
}

/** What the swarm batch answers: 200 with the item refused in its slot (it checks items one by one). */
function expectRefusedSlot(res: { status: number; body: any }, refused: Refusal): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body).to.have.length(1);
  expect(res.body[0].status, JSON.stringify(res.body[0])).to.equal("error");
  if (refused.status === 422) expect(res.body[0].detail).to.include(`'${label(refused.at)}'`);
  else expect(res.body[0].detail).to.match(refused.detail);
}

/** One `it` per case and endpoint, against the API at `baseUrl()`. */
function describeRefusals(h: () => Harness, baseUrl: () => string, cases: (c: RefusalCase) => boolean): void {
  for (const site of REFUSAL_SITES) {
    const chosen = site.cases.filter(cases);
    if (chosen.length === 0) continue;
    describe(`${site.refusal} (${site.file})`, () => {
      for (const c of chosen) {
        for (const { endpoint, probe, batch } of probes(c)) {
          it(`${endpoint}: ${c.name}`, async () => {
            const { key, keyId } = await h().newKey();
            const marker = `door-${randomUUID()}`;
            const body = probe.body(marker);
            const res = await request(baseUrl(), "POST", PATHS[endpoint], {
              key,
              body: batch ? [body] : body,
              headers: PREFER,
            });
            if (endpoint === "swarm batch") expectRefusedSlot(res, probe.refused);
            else expectRefused(res, probe.refused, endpoint === "agent batch" ? 0 : null);
            const [{ runs }] = await h().deps.ds.query("SELECT count(*)::int AS runs FROM runs WHERE api_key_id = $1", [
              keyId,
            ]);
            expect(runs, "runs stored for the refused request").to.equal(0);
            expect(
              h().sim.journal.filter((e: any) => JSON.stringify(e.body).includes(marker)),
              "LLM calls made for it",
            ).to.deep.equal([]);
          });
        }
      }
    });
  }
}

describe("requests a worker would refuse are refused by the API, before any run or LLM call", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  describeRefusals(
    () => h,
    () => h.baseUrl,
    (c) => !c.withoutGateway,
  );

  describe("on a deployment without the LLM gateway, where models depend on provider keys", function () {
    this.timeout(120_000);
    let deployment: ProcessDeployment;
    let baseUrl: string;

    before(async function () {
      this.timeout(180_000);
      const { LLM_BASE_URL: gateway, LLM_API_KEY: _key, ...env } = process.env;
      deployment = new ProcessDeployment({
        ...env,
        // Its own queues: whatever it wrongly queued would wait there, not run on this harness's workers.
        QUEUE_PREFIX: config.queue.prefix.replace("}", "-door}"),
        LOG_LEVEL: "warn",
        OPENAI_API_KEY: "simulator",
        OPENAI_BASE_URL: gateway,
        ANTHROPIC_API_KEY: "",
        // The default model's provider has no key: built-in agents could not run.
        DEFAULT_MODEL: "claude-sonnet-4-20250514",
        // OpenAI is reached, not the simulator by name: its `sim_*` controls are not options here.
        LLM_SIMULATOR: "false",
      });
      ({ url: baseUrl } = await deployment.startWeb("door-web"));
    });
    after(async () => deployment?.stop());

    describeRefusals(
      () => h,
      () => baseUrl,
      (c) => Boolean(c.withoutGateway),
    );
  });
});
