import { expect } from "chai";
import { config, loadConfig } from "../../shared/config";
import { UsageCounter } from "../../workers/agents/agent-context";
import { swarmUsage } from "../../workers/swarms/swarm-usage";
import { researchInput, researchTools } from "../../workers/swarms/types/deep-research-researcher";

const settings = (env: Record<string, string>) => loadConfig(env).builtinTools;

describe("DeepResearchSwarm's web search", () => {
  it("research turns get auto_search only when the deployment has a search provider, and the input says so", () => {
    expect(researchTools(settings({}))).to.deep.equal([]);
    expect(researchTools(settings({ WEB_SCRAPER: "on" }))).to.deep.equal([]);
    expect(researchTools(settings({ SEARCH_PROVIDER_URL: "https://api.exa.ai" }))).to.deep.equal(["auto_search"]);

    const plain = researchInput("the task", "the query", []);
    expect(plain).to.equal(
      "Research task:\nthe task\n\nYour query:\nthe query\n\nResearch this query thoroughly and report what you found, with sources and how reliable they are.",
    );
    const searching = researchInput("the task", "the query", ["auto_search"]);
    expect(searching).to.include("Your query:\nthe query\n\nYou can search the web with auto_search");
    expect(searching).to.include("cite the URL of every source you use");
  });

  it("a swarm whose agents had the search pays its flat fee once, undiscounted, in the breakdown and total_cost", () => {
    const pricing = loadConfig({}).pricing;
    const counter = Object.assign(new UsageCounter(), { inputTokens: 2000, outputTokens: 1000 });
    counter.addCaller("Scout", false);
    const without = swarmUsage(counter, "flex", new Date("2026-11-24T12:00:00Z"), pricing);
    expect(without.billing_info.cost_breakdown).to.not.have.property("search_cost");

    counter.builtinTools.add("auto_search");
    const withSearch = swarmUsage(counter, "flex", new Date("2026-11-24T12:00:00Z"), pricing);
    const fee = config.builtinTools.fees.auto_search;
    expect(withSearch.billing_info.cost_breakdown.search_cost).to.equal(fee);
    expect(withSearch.billing_info.cost_breakdown).to.not.have.property("scrape_cost");
    expect(withSearch.billing_info.total_cost).to.be.closeTo(without.billing_info.total_cost + fee, 1e-6);
    expect(withSearch.billing_info.discount_active).to.equal(true);
  });
});
