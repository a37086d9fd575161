import { expect } from "chai";
import { loadConfig } from "../../shared/config";
import { chosenBuiltinTool, offeredBuiltinTools, unofferedBuiltinTools } from "../../shared/tools/builtin-tools";
import { htmlToText } from "../../workers/tools/html-text";

const settings = (env: Record<string, string>) => loadConfig(env).builtinTools;

describe("built-in tools", () => {
  it("offers search only with a provider, and the scraper unless turned off", () => {
    expect(offeredBuiltinTools(settings({}))).to.deep.equal(["web_scraper"]);
    expect(offeredBuiltinTools(settings({ SEARCH_PROVIDER_URL: "https://api.exa.ai" }))).to.deep.equal([
      "auto_search",
      "web_scraper",
    ]);
    expect(
      offeredBuiltinTools(settings({ SEARCH_PROVIDER_URL: "https://api.exa.ai", WEB_SCRAPER: "off" })),
    ).to.deep.equal(["auto_search"]);
    expect(() => loadConfig({ SEARCH_PROVIDER_URL: "ftp://x" })).to.throw(/SEARCH_PROVIDER_URL/);
  });

  it("attaches one tool, auto_search first, and names only unoffered built-in tools", () => {
    expect(chosenBuiltinTool(["web_scraper", "auto_search"])).to.equal("auto_search");
    expect(chosenBuiltinTool(["web_scraper", "my_tool"])).to.equal("web_scraper");
    expect(chosenBuiltinTool(["my_tool"])).to.equal(null);
    expect(chosenBuiltinTool(null)).to.equal(null);
    expect(unofferedBuiltinTools(["auto_search", "web_scraper", "my_tool"], settings({}))).to.deep.equal([
      "auto_search",
    ]);
  });

  it("turns HTML into readable text: title, block lines, entities; no scripts, styles or comments", () => {
    const html = `<html><head><title>A &amp; B</title><style>b{}</style></head><body>
      <!-- hidden --><script type="x">var s = "<p>no</p>";</script>
      <h1>Head&#8212;line</h1><p>One <b>bold</b>&nbsp;word &#x263A;</p><ul><li>a</li><li>b &lt;c&gt;</li></ul></body></html>`;
    expect(htmlToText(html)).to.equal("Title: A & B\nHead—line\nOne bold word ☺\na\nb <c>");
  });

  it("reads a hostile page in linear time: unclosed tags, comments, dropped elements and titles by the megabyte", () => {
    const pages = ["<", "<!--", "<script>", "<title>", "<p", "<style x=1>"].map((unit) =>
      unit.repeat(1_000_000 / unit.length),
    );
    const started = performance.now();
    for (const page of pages) htmlToText(page);
    // A quadratic pattern needs minutes for one such page (40,000 `<` took 0.9 s); linear ones, milliseconds.
    expect(performance.now() - started).to.be.below(3_000);
    expect(htmlToText("<p>kept<script>x<p>gone")).to.equal("kept");
    expect(htmlToText("a<!-- open comment <p>gone")).to.equal("a");
  });
});
