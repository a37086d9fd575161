import { expect } from "chai";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

/** An OpenAI client that strays under OpenAI's paths (a newer SDK's call, a typo) still reads OpenAI's error body. */
describe("unknown paths under OpenAI's answer in OpenAI's error body", () => {
  let h: Harness;
  let key: string;
  before(async function () {
    this.timeout(60_000);
    ({ h, key } = await harnessWithKey());
  });

  it("a 404 under /v1/chat/completions and /v1/models, a 405 too; the Swarms catalogue keeps its own body", async () => {
    for (const [method, path, status] of [
      ["POST", "/v1/chat/completions/x", 404],
      ["GET", "/v1/chat/completions/x/y", 404],
      ["GET", "/v1/models/openai/gpt-4.1", 404],
      ["DELETE", "/v1/chat/completions", 405],
    ] as const) {
      const res = await request(h.baseUrl, method, path, { key, ...(method === "POST" ? { body: {} } : {}) });
      expect(res.status, `${method} ${path}`).to.equal(status);
      expect(res.body, `${method} ${path}`).to.have.keys("error");
      expect(res.body.error).to.include({ type: "invalid_request_error" });
    }
    const swarms = await request(h.baseUrl, "DELETE", "/v1/models/available", { key });
    expect(swarms.status).to.equal(405);
    expect(swarms.body).to.include({ status_code: 405 });
  });
});
