import { expect } from "chai";
import { version } from "../../package.json";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { expectSdkType, swarmsClient } from "../helpers/swarms-sdk";

/** The hosted SDK's discovery and account calls against Apiary: `getRoot()` and `agent.list()`. */
describe("GET / and the swarms-ts SDK's getRoot and agent.list", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("GET / says what this is and where its docs are, without a key, and every link answers", async () => {
    const res = await request(h.baseUrl, "GET", "/");
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^application\/json/);
    expect(res.body).to.deep.include({
      name: "Apiary",
      version,
      docs_url: "/docs",
      openapi_url: "/openapi.json",
      health_url: "/health",
    });
    expect(res.body.description).to.be.a("string").and.not.equal("");
    for (const link of [res.body.docs_url, res.body.openapi_url, res.body.health_url])
      expect((await request(h.baseUrl, "GET", link)).status, link).to.equal(200);
  });

  it("client.getRoot() answers", async () => {
    const { key } = await h.newKey();
    const root = (await swarmsClient(h.baseUrl, key).getRoot()) as Record<string, unknown>;
    expect(root.name).to.equal("Apiary");
    expect(root.openapi_url).to.equal("/openapi.json");
  });

  it("client.agent.list() answers an AgentListResponse holding the agents the key's account ran", async () => {
    const { key } = await h.newKey();
    const client = swarmsClient(h.baseUrl, key);
    await client.agent.run({ agent_config: { agent_name: "Listed", model_name: "gpt-4o-mini" }, task: "Hi." });
    const listed = expectSdkType<Record<string, any>>("AgentListResponse", await client.agent.list(), "agent/agent");
    expect(listed.success).to.equal(true);
    expect(listed.count).to.equal(1);
    expect(listed.agents.map((a: { agent_name: string }) => a.agent_name)).to.deep.equal(["Listed"]);
  });
});
