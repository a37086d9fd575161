import { expect } from "chai";
import { config } from "../../shared/config";
import { revokeApiKey } from "../../shared/db/api-key-store";
import { harness, type Harness } from "../helpers/harness";
import { announceKeyRevoked } from "../../shared/queues/run-notices";
import { eventually, request } from "../helpers/http";

const AGENT_COMPLETIONS = "/v1/agent/completions";
const valid = { agent_config: { agent_name: "A" }, task: "hi" };

describe("execution API errors", () => {
  let h: Harness;
  let key: string;
  let keyId: string;

  before(async () => {
    h = await harness();
    ({ key, keyId } = await h.newKey());
  });

  describe("401", () => {
    for (const [label, headers] of [
      ["no key", {}],
      ["a wrong key", { "x-api-key": `sk-${"0".repeat(64)}` }],
      ["a malformed key", { "x-api-key": "hello" }],
      ["a wrong bearer", { authorization: `Bearer sk-${"1".repeat(64)}` }],
    ] as const) {
      it(`with ${label}`, async () => {
        const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, { headers: { ...headers }, body: valid });
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({
          detail: "Invalid or missing API key",
          code: "AUTHENTICATION_FAILED",
          status_code: 401,
          how_to_get_key: "http://localhost:8081/platform/api-keys",
        });
      });
    }

    it("accepts Authorization: Bearer and refuses a revoked key", async () => {
      const other = await h.newKey();
      const ok = await request(h.baseUrl, "GET", "/v1/jobs/none", {
        headers: { authorization: `Bearer ${other.key}` },
      });
      expect(ok.status).to.equal(404);
      await revokeApiKey(h.deps.ds, other.keyId);
      await announceKeyRevoked(h.deps.redis, other.keyId);
      // The announcement reaches the API's cache through Redis pub/sub: poll briefly for it.
      const revoked = await eventually(async () => {
        const res = await request(h.baseUrl, "GET", "/v1/jobs/none", {
          headers: { authorization: `Bearer ${other.key}` },
        });
        return res.status === 401 ? res : undefined;
      }, 2_000);
      expect(revoked.status).to.equal(401);
    });
  });

  it("422 lists every bad field at once, with its location", async () => {
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { max_loops: 0, temperature: 5, max_tokens: "many", reasoning_effort: "extreme" } },
    });
    expect(res.status).to.equal(422);
    expect(res.body.code).to.equal("VALIDATION_ERROR");
    const locs = res.body.detail.map((d: any) => d.loc.join("."));
    expect(locs).to.have.members([
      "body.agent_config.max_loops",
      "body.agent_config.temperature",
      "body.agent_config.max_tokens",
      "body.agent_config.reasoning_effort",
      "body.task",
    ]);
    for (const d of res.body.detail) expect(d).to.have.all.keys("loc", "msg", "type");
    const runs = await h.deps.ds.query("SELECT count(*)::int AS n FROM runs WHERE api_key_id = $1", [keyId]);
    expect(runs[0].n).to.equal(0);
  });

  it("400 for malformed JSON and for a body that is not JSON", async () => {
    const broken = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      raw: '{"task": ',
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).to.equal(400);
    expect(broken.body).to.include({ code: "BAD_REQUEST", status_code: 400 });
    const form = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      raw: "task=hi",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).to.equal(400);
    expect(form.body.code).to.equal("INVALID_BODY");
  });

  it("413 for a body over the size limit", async () => {
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { ...valid, task: "x".repeat(11 * 1024 * 1024) },
    });
    expect(res.status).to.equal(413);
    expect(res.body).to.include({ code: "PAYLOAD_TOO_LARGE", status_code: 413 });
  });

  it("404 for an unknown path and 405 with Allow for a wrong method", async () => {
    const missing = await request(h.baseUrl, "GET", "/v1/nothing-here", { key });
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ code: "NOT_FOUND", status_code: 404 });
    const outside = await request(h.baseUrl, "GET", "/nothing-here");
    expect(outside.status).to.equal(404);
    const wrong = await request(h.baseUrl, "GET", AGENT_COMPLETIONS, { key });
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.get("allow")).to.include("POST");
    expect(wrong.body).to.include({ code: "METHOD_NOT_ALLOWED", status_code: 405 });
  });

  it("422 for an empty model name (a provider without a key is a 400, covered by the registry's unit tests)", async () => {
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { model_name: "" }, task: "x" },
    });
    expect(res.status).to.equal(422);
    expect(res.body.detail.map((d: any) => d.loc.join("."))).to.deep.equal(["body.agent_config.model_name"]);
  });

  it("keeps the admin board behind basic auth", async () => {
    const anonymous = await request(h.baseUrl, "GET", "/admin/queues");
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get("www-authenticate")).to.match(/^Basic/);
    // The password this repository once gave every checkout opens nothing; the configured one does.
    const former = Buffer.from("admin:apiary-dev-admin").toString("base64");
    const refused = await request(h.baseUrl, "GET", "/admin/queues", { headers: { authorization: `Basic ${former}` } });
    expect(refused.status).to.equal(401);
    const basic = Buffer.from(`${config.admin.user}:${config.admin.password}`).toString("base64");
    const admin = await request(h.baseUrl, "GET", "/admin/queues", { headers: { authorization: `Basic ${basic}` } });
    expect(admin.status).to.equal(200);
    expect(admin.body).to.match(/<html/i);
  });
});
