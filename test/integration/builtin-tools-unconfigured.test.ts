import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { entriesMentioning } from "../helpers/swarm";
import { ProcessDeployment, type WebProcess } from "../helpers/process-deployment";

/**
 * A deployment whose operator configured no search provider and turned the scraper off: a web
 * process of its own (the in-process harness has a provider), on the tests' database.
 */
describe("built-in tools a deployment does not offer", function () {
  this.timeout(120_000);
  let h: Harness;
  let deployment: ProcessDeployment;
  let web: WebProcess;
  let key: string;
  let keyId: string;

  before(async function () {
    this.timeout(180_000);
    h = await harness();
    ({ key, keyId } = await h.newKey());
    deployment = new ProcessDeployment({
      ...process.env,
      SEARCH_PROVIDER_URL: "",
      WEB_SCRAPER: "off",
      LOG_LEVEL: "warn",
    });
    web = await deployment.startWeb("web-no-tools");
  });
  after(async () => {
    await deployment?.stop();
  });

  it("GET /v1/tools/available lists none of them", async () => {
    const res = await request(web.url, "GET", "/v1/tools/available", { key });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: "success", tools: [] });
  });

  it("a request naming one, or advanced research without search, is refused (400 naming it) before anything is stored or run", async () => {
    const runs = async () =>
      Number((await h.deps.ds.query("SELECT count(*) AS n FROM runs WHERE api_key_id = $1", [keyId]))[0].n);
    const before = await runs();
    const agent = { agent_name: "Unsearched", model_name: "gpt-4o-mini" };
    const single = await request(web.url, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: agent, task: "unoffered-marker", tools_enabled: ["auto_search"] },
    });
    expect(single.status, JSON.stringify(single.body)).to.equal(400);
    expect(single.body).to.include({ code: "TOOL_NOT_AVAILABLE", status_code: 400 });
    expect(single.body.detail).to.include('tools_enabled: "auto_search" is not offered here');
    expect(single.body.detail).to.include("GET /v1/tools/available");

    const batch = await request(web.url, "POST", "/v1/agent/batch/completions", {
      key,
      body: [
        { agent_config: agent, task: "unoffered-marker", tools_enabled: ["my_function"] },
        { agent_config: agent, task: "unoffered-marker", tools_enabled: ["web_scraper"] },
      ],
    });
    expect(batch.status, JSON.stringify(batch.body)).to.equal(400);
    expect(batch.body.detail).to.include('[1].tools_enabled: "web_scraper" is not offered here');
    expect(batch.body.detail).to.not.include("[0]");
    const research = await request(web.url, "POST", "/v1/advanced-research/completions", {
      key,
      body: { task: "unoffered-marker", config: null },
    });
    expect(research.status, JSON.stringify(research.body)).to.equal(400);
    expect(research.body).to.include({ code: "TOOL_NOT_AVAILABLE" });
    expect(research.body.detail).to.include("no search provider");
    expect(await runs()).to.equal(before);
    expect(entriesMentioning(h, "unoffered-marker")).to.deep.equal([]);
  });
});
