import { expect } from "chai";
import { assertRequestEgress } from "../../api/runs/request-egress";
import { BadRequestError } from "../../shared/errors";
import { EgressPolicy } from "../../shared/net/egress-policy";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { captureLogs } from "../helpers/log-capture";
import { agent, entriesMentioning, uniqueMarker } from "../helpers/swarm";

/** A name no resolver answers (RFC 6761): a cluster service name the web process cannot see. */
const UNRESOLVABLE_HOST = "cluster-service.invalid";
const PRIVATE_HOST = "10.0.0.1";

/** The request's body with every host of the list spelled `<host>`: what is left must not depend on why. */
const withoutHost = (body: unknown, host: string) => JSON.stringify(body).split(host).join("<host>");

/**
 * A URL whose name does not resolve where the web process asks is refused as a private address
 * is: whoever fetches it later (a model server, a gateway, a worker) may resolve it inside the
 * operator's network. And a refusal reads the same whatever the reason, so a client cannot tell
 * an internal name from an unknown one. Before, such a URL was let through (an MCP server on one
 * failed the run with a 500 naming ENOTFOUND).
 */
describe("client URLs on names that do not resolve, and the one refusal", function () {
  this.timeout(30_000);
  let h: Harness;
  let key: string;
  let keyId: string;

  before(async () => {
    h = await harness();
    ({ key, keyId } = await h.newKey());
  });

  const runCount = async () =>
    Number((await h.deps.ds.query("SELECT count(*) AS n FROM runs WHERE api_key_id = $1", [keyId]))[0].n);

  /** Posts the body built for each host and expects the same 400 for both, nothing stored or sent. */
  async function expectSameRefusal(path: string, body: (host: string) => unknown, marker: string) {
    const runs = await runCount();
    const [unresolvable, private_] = await Promise.all(
      [UNRESOLVABLE_HOST, PRIVATE_HOST].map((host) => request(h.baseUrl, "POST", path, { key, body: body(host) })),
    );
    expect(unresolvable.status, JSON.stringify(unresolvable.body)).to.equal(400);
    expect(private_.status, JSON.stringify(private_.body)).to.equal(400);
    expect(withoutHost(unresolvable.body, UNRESOLVABLE_HOST)).to.equal(withoutHost(private_.body, PRIVATE_HOST));
    expect(await runCount()).to.equal(runs);
    expect(entriesMentioning(h, marker)).to.deep.equal([]);
    return unresolvable.body;
  }

  it("refuses an image on a name that does not resolve with the very answer a private address gets: agents, swarms, chat", async () => {
    const marker = uniqueMarker("egress-unresolvable-img");
    const agentBody = await expectSameRefusal(
      "/v1/agent/completions",
      (host) => ({ agent_config: { agent_name: "Eye" }, task: marker, img: `http://${host}/x.png` }),
      marker,
    );
    expect(agentBody).to.include({ code: "EGRESS_REFUSED", status_code: 400 });
    expect(agentBody.detail).to.equal(
      `img: ${UNRESOLVABLE_HOST} is refused by the egress policy: the service only connects to public http(s) addresses unless the operator allows the host with EGRESS_ALLOW`,
    );
    const swarmBody = await expectSameRefusal(
      "/v1/swarm/completions",
      (host) => ({
        swarm_type: "SequentialWorkflow",
        agents: [agent("One")],
        task: marker,
        imgs: ["data:image/png;base64,iVBORw0KGgo=", `https://${host}/cat.png`],
      }),
      marker,
    );
    expect(swarmBody.detail).to.match(/^imgs\[1\]: cluster-service\.invalid is refused by the egress policy/);
    const chatBody = await expectSameRefusal(
      "/v1/chat/completions",
      (host) => ({
        model: "gpt-4.1",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: marker },
              { type: "image_url", image_url: { url: `https://${host}/x.png` } },
            ],
          },
        ],
      }),
      marker,
    );
    expect(chatBody.error).to.include({ type: "invalid_request_error", code: "egress_refused" });
    expect(chatBody.error.message).to.match(/^messages\[0\]\.content\[1\]\.image_url\.url: cluster-service\.invalid /);
  });

  it("refuses an MCP server on a name that does not resolve when the request arrives (400, never a 500), in every MCP field", async () => {
    const marker = uniqueMarker("egress-unresolvable-mcp");
    const url = `http://${UNRESOLVABLE_HOST}:8931/mcp`;
    const logs = captureLogs();
    const body = await expectSameRefusal(
      "/v1/agent/completions",
      (host) => ({
        agent_config: {
          agent_name: "M",
          mcp_url: `http://${host}:8931/mcp`,
          mcp_config: { url: `http://${host}:8931/mcp`, authorization_token: "tok-31" },
          mcp_configs: { connections: [{ url: `http://${host}:8931/mcp` }] },
          handoffs: [{ agent_name: "B", mcp_url: `http://${host}:8931/mcp` }],
        },
        task: marker,
      }),
      marker,
    ).finally(() => logs.stop());
    // The operator's log keeps why each host was refused; the answer does not.
    const refusedLines = logs.lines.filter((l) => l.msg === "egress refused");
    const reasons = new Map(refusedLines.map((l) => [l.host, `${String(l.where)}: ${String(l.reason)}`]));
    expect(reasons.get(UNRESOLVABLE_HOST)).to.match(/^request: does not resolve \(E[A-Z_]+\)$/); // ENOTFOUND, or EAI_AGAIN offline
    expect(reasons.get(PRIVATE_HOST)).to.equal("request: is a private address");
    for (const field of [
      "agent_config.mcp_url",
      "agent_config.mcp_config.url",
      "agent_config.mcp_configs.connections[0].url",
      "agent_config.handoffs[0].mcp_url",
    ])
      expect(body.detail).to.include(`${field}: ${UNRESOLVABLE_HOST} is refused by the egress policy`);
    expect(body.detail).to.not.include("tok-31").and.not.include("ENOTFOUND").and.not.include(url);
    const swarm = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: { swarm_type: "SequentialWorkflow", agents: [agent("One", { mcp_url: url })], task: marker },
    });
    expect(swarm.status, JSON.stringify(swarm.body)).to.equal(400);
    expect(swarm.body.code).to.equal("EGRESS_REFUSED");
  });

  it("words every refusal alike, byte for byte apart from the host: loopback, private, localhost, a name that does not resolve", async () => {
    // The tests' EGRESS_ALLOW allows 127.0.0.1, so this uses the operator's default: an empty allow-list.
    const strict = new EgressPolicy({ allow: [] });
    const hosts = ["127.0.0.1", "10.1.2.3", "localhost", "nothing.invalid"];
    const details = await Promise.all(
      hosts.map(async (host) => {
        const err = await assertRequestEgress([], [{ url: `http://${host}/`, field: "img" }], undefined, strict).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err, host).to.be.instanceOf(BadRequestError);
        return (err as BadRequestError).message.split(host).join("<host>");
      }),
    );
    expect(new Set(details).size, details.join("\n")).to.equal(1);
    // And through the API (127.0.0.1 aside, which the tests allow), whole answers alike.
    const answers = await Promise.all(
      hosts.slice(1).map(async (host) => {
        const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
          key,
          body: { agent_config: { agent_name: "Eye" }, task: "look", img: `http://${host}/` },
        });
        expect(res.status, host).to.equal(400);
        return withoutHost(res.body, host);
      }),
    );
    expect(new Set(answers).size, answers.join("\n")).to.equal(1);
  });
});
