import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { startImageServer, type ImageServer } from "../helpers/image-server";
import { dataUrl, PNG_1PX, GIF_1PX } from "../helpers/images";
import { agent, entriesMentioning, postSwarm, uniqueMarker } from "../helpers/swarm";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** Every http(s) URL anywhere in what the model server was sent for `marker`. */
const httpUrlsSent = (h: Harness, marker: string) =>
  JSON.stringify(entriesMentioning(h, marker)).match(/https?:\/\/[^"\s]*/g) ?? [];

/**
 * Image URLs are fetched by the worker through the egress policy, and the model server (the LLM
 * simulator here) only ever gets data URLs: before, it got the client's URL and fetched it itself,
 * following redirects into the operator's network.
 */
describe("image URLs: fetched by the service, sent to the model as data", function () {
  this.timeout(30_000);
  let h: Harness;
  let key: string;
  let images: ImageServer;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    images = await startImageServer();
  });
  after(async () => images?.close());

  const imageParts = (marker: string) =>
    entriesMentioning(h, marker)
      .flatMap((e: any) => e.body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])))
      .filter((p: any) => p.type === "image_url");

  /** An agent completion of `marker` with `images` as its `imgs`. */
  const viewImages = (marker: string, imgs: string[]) =>
    request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { agent_name: "Viewer" }, task: marker, imgs },
    });

  it("sends an allowed server's image as a data URL typed by its bytes, fetched once for every agent of a swarm", async () => {
    const marker = uniqueMarker("img-data");
    const res = await viewImages(marker, [`${images.url}/a.png`, `${images.url}/b.gif`]);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(imageParts(marker).map((p: any) => p.image_url.url)).to.deep.equal([
      dataUrl(PNG_1PX, "image/png"),
      dataUrl(GIF_1PX, "image/gif"),
    ]);
    expect(httpUrlsSent(h, marker)).to.deep.equal([]);

    const swarmMarker = uniqueMarker("img-swarm");
    const before = images.requests.length;
    const swarm = await postSwarm(h, key, {
      swarm_type: "ConcurrentWorkflow",
      task: swarmMarker,
      agents: [agent("One"), agent("Two"), agent("Three")],
      img: `${images.url}/a.png?swarm=${swarmMarker}`,
    });
    expect(swarm.status, JSON.stringify(swarm.body)).to.equal(200);
    expect(imageParts(swarmMarker)).to.have.length(3);
    expect(httpUrlsSent(h, swarmMarker)).to.deep.equal([]);
    expect(images.requests.slice(before).filter((r) => r.includes(swarmMarker))).to.have.length(1);
  });

  for (const inside of ["http://127.0.0.2/x.png", "http://169.254.169.254/latest/meta-data/"]) {
    it(`fails the run with EGRESS_REFUSED when an allowed server redirects to ${inside}, and the model is never called`, async () => {
      const marker = uniqueMarker("img-redirect");
      const res = await viewImages(marker, [`${images.url}/redirect?to=${encodeURIComponent(inside)}`]);
      // A failed run's answer (500 with the failure's own code, as for an MCP server refused on connect).
      expect(res.status, JSON.stringify(res.body)).to.equal(500);
      expect(res.body).to.include({ code: "EGRESS_REFUSED", agent: "Viewer" });
      expect(res.body.detail).to.include("refused by the egress policy");
      expect(entriesMentioning(h, marker)).to.deep.equal([]);
    });
  }

  for (const [what, path, code] of [
    ["an HTML page", "/page.html", "IMAGE_UNSUPPORTED_TYPE"],
    ["an SVG", "/x.svg", "IMAGE_UNSUPPORTED_TYPE"],
    ["a 404", "/missing.png", "IMAGE_UNAVAILABLE"],
  ]) {
    it(`fails the run with ${code} for ${what}, and the model is never called`, async () => {
      const marker = uniqueMarker("img-type");
      const res = await viewImages(marker, [`${images.url}${path}`]);
      expect(res.status, JSON.stringify(res.body)).to.equal(500);
      expect(res.body).to.include({ code, agent: "Viewer" });
      expect(entriesMentioning(h, marker)).to.deep.equal([]);
    });
  }

  const spellings = [
    "http://example.test\\@127.0.0.2/x.png",
    "http://8.8.8.8\\@169.254.169.254/",
    "http://user:pass@example.test/x.png",
    "http://example.test/x.png\\..\\y",
  ];

  it("refuses at the door an image URL parsers read differently (backslash, user info), naming the field, for agents, swarms and chat completions", async () => {
    for (const url of spellings) {
      const marker = uniqueMarker("img-door");
      const agentRun = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
        key,
        body: {
          agent_config: { agent_name: "Viewer" },
          task: marker,
          imgs: ["data:image/png;base64,iVBORw0KGgo=", url],
        },
      });
      expect(agentRun.status, `${url}: ${JSON.stringify(agentRun.body)}`).to.equal(422);
      expect(JSON.stringify(agentRun.body)).to.include("imgs").and.include("every parser reads alike");
      const swarm = await postSwarm(h, key, {
        swarm_type: "SequentialWorkflow",
        task: marker,
        agents: [agent("A")],
        img: url,
      });
      expect(swarm.status, `${url}: ${JSON.stringify(swarm.body)}`).to.equal(422);
      expect(JSON.stringify(swarm.body)).to.include("img").and.include("every parser reads alike");
      const chat = await request(h.baseUrl, "POST", "/v1/chat/completions", {
        key,
        body: {
          model: "gpt-4o-mini",
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: marker },
                { type: "image_url", image_url: { url } },
              ],
            },
          ],
        },
      });
      expect(chat.status, `${url}: ${JSON.stringify(chat.body)}`).to.be.within(400, 422);
      expect(JSON.stringify(chat.body)).to.include("image_url").and.include("every parser reads alike");
      expect(entriesMentioning(h, marker)).to.deep.equal([]);
    }
  });
});
