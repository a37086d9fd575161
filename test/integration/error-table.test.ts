import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

/** A typo of a real model, which the provider (the simulator) refuses. */
const TYPO = "gtp-4o";
const AGENT = { agent_name: "A", model_name: "gpt-4o-mini" };
const TYPO_AGENT = { agent_name: "A", model_name: TYPO };
const TOO_LONG = "x".repeat(1_000_001);

/** One completion endpoint: a valid body without its input, the input's field, and how to name a model. */
interface Endpoint {
  path: string;
  /** The body without its input field (an array of one item for a batch). */
  base: Record<string, unknown>;
  /** The field a run works on (`task`, or `tasks` for the grid). */
  input: string;
  /** A valid input. */
  value: unknown;
  /** The body naming an unknown model, when the endpoint takes one. */
  unknownModel?: Record<string, unknown>;
  batch?: boolean;
  /** Whether the endpoint takes a `swarm_type`. */
  swarmType?: boolean;
}

const SWARMS_API: Endpoint[] = [
  {
    path: "/v1/agent/completions",
    base: { agent_config: AGENT },
    input: "task",
    value: "t",
    unknownModel: { agent_config: TYPO_AGENT },
  },
  { path: "/v1/agent/batch/completions", base: { agent_config: AGENT }, input: "task", value: "t", batch: true },
  {
    path: "/v1/swarm/completions",
    base: { swarm_type: "SequentialWorkflow", agents: [AGENT] },
    input: "task",
    value: "t",
    unknownModel: { swarm_type: "SequentialWorkflow", agents: [TYPO_AGENT] },
    swarmType: true,
  },
  {
    path: "/v1/reasoning-agent/completions",
    base: { agent_name: "R", model_name: "gpt-4o-mini", swarm_type: "reasoning-duo" },
    input: "task",
    value: "t",
    unknownModel: { agent_name: "R", model_name: TYPO, swarm_type: "reasoning-duo" },
    swarmType: true,
  },
  {
    path: "/v1/graph-workflow/completions",
    base: { agents: [AGENT] },
    input: "task",
    value: "t",
    unknownModel: { agents: [TYPO_AGENT] },
  },
  {
    path: "/v1/batched-grid-workflow/completions",
    base: { agent_completions: [AGENT] },
    input: "tasks",
    value: ["t"],
    unknownModel: { agent_completions: [TYPO_AGENT] },
  },
  { path: "/v1/auto-swarm-builder/completions", base: {}, input: "task", value: "t" },
  { path: "/v1/advanced-research/completions", base: {}, input: "task", value: "t" },
];

const OPENAI: Endpoint[] = [
  {
    path: "/v1/chat/completions",
    base: { model: "gpt-4o-mini" },
    input: "messages",
    value: [{ role: "user", content: "t" }],
  },
  { path: "/v1/responses", base: { model: "gpt-4o-mini" }, input: "input", value: "t" },
  { path: "/v1/embeddings", base: { model: "text-embedding-3-small" }, input: "input", value: "t" },
];

/**
 * The table of docs/errors.md walked over every completion endpoint: each mistake gets one status
 * and code per API family (the Swarms-compatible endpoints' FastAPI body, the OpenAI paths' own).
 */
describe("one status and code for each mistake, on every completion endpoint", () => {
  let h: Harness;
  let key: string;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
  });

  const post = (path: string, body: unknown, raw?: string) =>
    request(h.baseUrl, "POST", path, {
      key,
      body,
      raw,
      headers: raw === undefined ? {} : { "content-type": "application/json" },
    });
  const item = (endpoint: Endpoint, body: Record<string, unknown>) => (endpoint.batch ? [body] : body);
  /** The location a batch item's problem is named at. */
  const loc = (endpoint: Endpoint, field: string) => (endpoint.batch ? ["body", 0, field] : ["body", field]);

  describe("Swarms-compatible endpoints", () => {
    for (const endpoint of SWARMS_API) {
      const { path, base, input } = endpoint;

      it(`${path}: bad JSON 400 BAD_REQUEST; a missing, mistyped or too long input 422 at its field`, async () => {
        const broken = await post(path, undefined, "{nope");
        expect(broken.status).to.equal(400);
        expect(broken.body).to.include({ code: "BAD_REQUEST", status_code: 400 });
        const cases: [string, Record<string, unknown>, string][] = [
          ["missing", base, "any.required"],
          ["mistyped", { ...base, [input]: 42 }, input === "tasks" ? "array.base" : "string.base"],
          ["too long", { ...base, [input]: input === "tasks" ? [TOO_LONG] : TOO_LONG }, "string.max"],
        ];
        for (const [label, body, type] of cases) {
          const res = await post(path, item(endpoint, body));
          expect(res.status, `${label}: ${JSON.stringify(res.body)}`).to.equal(422);
          expect(res.body.code).to.equal("VALIDATION_ERROR");
          // At the field, or at its item for a list (`tasks[0]`).
          const at = loc(endpoint, input);
          const issue = res.body.detail.find((d: { loc: unknown[] }) => at.every((step, i) => d.loc[i] === step));
          expect(issue, label).to.deep.include({ type });
        }
      });

      if (endpoint.swarmType)
        it(`${path}: an unknown swarm_type 422 at swarm_type`, async () => {
          const res = await post(path, item(endpoint, { ...base, [input]: "t", swarm_type: "NoSuchSwarm" }));
          expect(res.status).to.equal(422);
          expect(res.body.detail.map((d: { loc: unknown[] }) => d.loc)).to.deep.include(["body", "swarm_type"]);
        });

      if (endpoint.unknownModel)
        it(`${path}: an unknown model 400 UNKNOWN_MODEL naming it`, async () => {
          const res = await post(path, { ...endpoint.unknownModel, [input]: endpoint.value });
          expect(res.status, JSON.stringify(res.body)).to.equal(400);
          expect(res.body).to.include({ code: "UNKNOWN_MODEL", status_code: 400 });
          expect(res.body.detail).to.include(TYPO);
        });
    }

    it("/v1/swarm/batch/completions: each mistake answered in its item's slot, the batch itself 200", async () => {
      const swarm = { swarm_type: "SequentialWorkflow", agents: [AGENT] };
      const res = await post("/v1/swarm/batch/completions", [
        swarm,
        { ...swarm, task: 42 },
        { ...swarm, task: "t", swarm_type: "NoSuchSwarm" },
      ]);
      expect(res.status).to.equal(200);
      expect(res.body.map((slot: { status: string }) => slot.status)).to.deep.equal(["error", "error", "error"]);
      expect(res.body[0].detail).to.include("'task' is required");
      expect(res.body[1].detail).to.include("'task' must be a string");
      expect(res.body[2].detail).to.include("'swarm_type' must be one of");
    });
  });

  describe("OpenAI-compatible endpoints (OpenAI's statuses)", () => {
    for (const { path, base, input } of OPENAI) {
      it(`${path}: bad JSON, a missing or mistyped input 400 naming it; an unknown model 404 model_not_found`, async () => {
        const broken = await post(path, undefined, "{nope");
        expect(broken.status).to.equal(400);
        expect(broken.body.error).to.include({ type: "invalid_request_error", code: "invalid_json" });
        const missing = await post(path, base);
        expect(missing.status, JSON.stringify(missing.body)).to.equal(400);
        expect(missing.body.error).to.include({ param: input, code: "missing_required_parameter" });
        const mistyped = await post(path, { ...base, [input]: 42 });
        expect(mistyped.status).to.equal(400);
        expect(mistyped.body.error).to.include({ param: input, code: "invalid_value" });
        const model = path === "/v1/embeddings" ? "text-embeding-3-small" : TYPO;
        const unknown = await post(path, {
          model,
          [input]: input === "messages" ? [{ role: "user", content: "t" }] : "t",
        });
        expect(unknown.status, JSON.stringify(unknown.body)).to.equal(404);
        expect(unknown.body.error).to.include({
          type: "invalid_request_error",
          param: "model",
          code: "model_not_found",
        });
        expect(unknown.body.error.message).to.include(model);
      });
    }
  });
});
