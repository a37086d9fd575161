import { expect } from "chai";
import { harness } from "../../helpers/harness";
import { request } from "../../helpers/http";

describe("platform app: errors", () => {
  it("answers unknown paths with the platform error body", async () => {
    const h = await harness();
    const res = await request(h.platformUrl, "GET", "/api/nothing-here");
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ error: "Not found", status_code: 404 });
    expect(res.body.message).to.be.a("string");
  });
});
