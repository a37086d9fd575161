import { createServer, type Server } from "node:http";
import { expect } from "chai";
import { pagesBrowser } from "../../helpers/browser";
import { harness, type Harness } from "../../helpers/harness";
import { GIF_1PX, PNG_1PX } from "../../helpers/images";
import { closeNow, listenLocally } from "../../helpers/local-server";
import { insertListing } from "../../helpers/platform-fixtures";
import { post, promptBody, promptsPlatform, type PromptsPlatform } from "../../helpers/prompts";

const SVG = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`);

/**
 * A listing's `image_url` is fetched once by the platform, through the egress policy, and its copy
 * served from the platform's own path: a viewer's browser never asks the seller's server (which
 * would learn every viewer's address). The seller's server is a local one on 127.0.0.1, which the
 * tests' EGRESS_ALLOW allows; its request log tells who asked.
 */
describe("listing images are the platform's own copies", function () {
  this.timeout(120_000);
  let h: Harness;
  let platform: PromptsPlatform;
  let key: string;
  let seller: Server;
  let sellerUrl: string;
  /** Every request the seller's server received: its path and user agent. */
  const asked: { path: string; agent: string }[] = [];
  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h);
    ({ key } = await h.newKey());
    seller = createServer((req, res) => {
      asked.push({ path: req.url ?? "", agent: req.headers["user-agent"] ?? "" });
      const body = req.url?.startsWith("/cover.png")
        ? { type: "image/png", data: PNG_1PX }
        : req.url?.startsWith("/drawing.svg")
          ? { type: "image/svg+xml", data: SVG }
          : req.url?.startsWith("/huge.gif")
            ? { type: "image/gif", data: Buffer.concat([GIF_1PX, Buffer.alloc(6 * 1024 * 1024)]) }
            : null;
      if (!body) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": body.type }).end(body.data);
    });
    sellerUrl = await listenLocally(seller);
  });
  after(async () => {
    await platform?.close();
    await closeNow(seller);
  });
  beforeEach(() => {
    asked.length = 0;
  });
  const { newPage } = pagesBrowser(() => platform.url);

  const approve = (id: string) => h.deps.ds.query(`UPDATE prompts SET status = 'approved' WHERE id = $1`, [id]);

  it("fetches the image once at submit and shows it from the platform's path; the browser never asks the seller", async () => {
    const created = await post(
      platform.url,
      "/api/add-prompt",
      key,
      promptBody({ image_url: `${sellerUrl}/cover.png` }),
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(asked.map((a) => a.path)).to.deep.equal(["/cover.png"]);
    const [row] = await h.deps.ds.query(`SELECT image_url, file_path FROM prompts WHERE id = $1`, [created.body.id]);
    expect(row.file_path).to.match(/^[0-9a-f]{64}\.png$/);
    expect(row.image_url).not.to.include(sellerUrl);
    await approve(created.body.id);

    // The seller's server is reachable for the browser: any request it made would be logged.
    const page = await newPage({ allow: [sellerUrl] });
    const served: string[] = [];
    page.on("response", (r) => served.push(`${r.status()} ${new URL(r.url()).pathname}`));
    const res = await page.goto(`/prompt/${created.body.id}`);
    expect(res!.status()).to.equal(200);
    expect(res!.headers()["content-security-policy"]).to.include("img-src 'self'");
    await page.waitForLoadState("networkidle");
    expect(await page.locator("img.cover").getAttribute("src")).to.equal(`/images/${row.file_path}`);
    expect(served).to.include(`200 /images/${row.file_path}`);
    expect(
      await page.locator("img.cover").evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).to.equal(1);
    expect(asked.map((a) => a.path)).to.deep.equal(["/cover.png"]);

    const image = await fetch(`${platform.url}/images/${row.file_path}`);
    expect(image.status).to.equal(200);
    expect(image.headers.get("content-type")).to.equal("image/png");
    expect(image.headers.get("x-content-type-options")).to.equal("nosniff");
    expect(image.headers.get("cache-control")).to.equal("public, max-age=31536000, immutable");
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG_1PX)).to.equal(true);
  });

  it("keeps the listing without an image when the URL is no PNG, JPEG, WebP or GIF, too large, or missing", async () => {
    for (const path of ["/drawing.svg", "/huge.gif", "/gone.png"]) {
      const created = await post(
        platform.url,
        "/api/add-prompt",
        key,
        promptBody({ image_url: `${sellerUrl}${path}` }),
      );
      expect(created.status, `${path} ${JSON.stringify(created.body)}`).to.equal(200);
      const [row] = await h.deps.ds.query(`SELECT image_url, file_path FROM prompts WHERE id = $1`, [created.body.id]);
      expect(row, path).to.deep.equal({ image_url: null, file_path: null });
      await approve(created.body.id);
      const page = await newPage({ allow: [sellerUrl] });
      expect((await page.goto(`/prompt/${created.body.id}`))!.status()).to.equal(200);
      expect(await page.locator("img").count()).to.equal(0);
    }
    expect(asked.map((a) => a.path)).to.deep.equal(["/drawing.svg", "/huge.gif", "/gone.png"]);
  });

  it("refuses a URL the egress policy refuses with 400 EGRESS_REFUSED, storing nothing", async () => {
    const before = (await h.deps.ds.query(`SELECT count(*)::int AS n FROM prompts`))[0].n;
    for (const url of [
      "http://127.0.0.2/cover.png",
      "http://169.254.169.254/latest/meta-data",
      "http://localhost/x.png",
    ]) {
      const res = await post(platform.url, "/api/add-prompt", key, promptBody({ image_url: url }));
      expect(res.status, url).to.equal(400);
      expect(res.body.code).to.equal("EGRESS_REFUSED");
      expect(res.body.message).to.include("image_url").and.include("EGRESS_ALLOW");
    }
    expect((await h.deps.ds.query(`SELECT count(*)::int AS n FROM prompts`))[0].n).to.equal(before);
  });

  it("fetches an edited image_url once too", async () => {
    const created = await post(platform.url, "/api/add-prompt", key, promptBody());
    expect(created.status).to.equal(200);
    const edited = await post(platform.url, "/api/edit-prompt", key, {
      id: created.body.id,
      image_url: `${sellerUrl}/cover.png`,
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body.updated_data.file_path).to.match(/^[0-9a-f]{64}\.png$/);
    expect(asked.map((a) => a.path)).to.deep.equal(["/cover.png"]);
  });

  it("shows an agent listing's image only from the platform's own path", async () => {
    const owner = (await h.newKey()).userId;
    const foreign = await insertListing(h.deps.ds, owner, { image_url: `${sellerUrl}/cover.png` });
    const page = await newPage({ allow: [sellerUrl] });
    expect((await page.goto(`/agent/${foreign}`))!.status()).to.equal(200);
    await page.waitForLoadState("networkidle");
    expect(await page.locator("img").count()).to.equal(0);
    expect(asked).to.deep.equal([]);
  });
});
