import { expect } from "chai";
import type { LookupAddress } from "node:dns";
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseEgressAllow } from "../../shared/net/egress-allow";
import { createEgressFetch } from "../../shared/net/egress-fetch";
import { EgressPolicy, EgressRefusedError, type ResolveAll } from "../../shared/net/egress-policy";

/** A plain HTTP server on a loopback address that records what reached it. */
interface RecordingServer {
  server: Server;
  port: number;
  hits: { method: string; url: string; headers: IncomingHttpHeaders }[];
}

async function listen(host: string, handler: RequestListener, port = 0): Promise<RecordingServer> {
  const hits: RecordingServer["hits"] = [];
  const server = createServer((req, res) => {
    hits.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port, hits };
}

const answer: RequestListener = (_req, res) => res.end("INTERNAL-SERVICE-ANSWER");

/** Answers for each name, one list per lookup in turn (the last one repeats): a name whose DNS changes. */
function changingResolve(answers: Record<string, string[][]>): ResolveAll & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const turns = answers[hostname];
    if (!turns) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const turn = turns[Math.min(calls.filter((c) => c === hostname).length, turns.length) - 1];
    return turn.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

async function refused(promise: Promise<unknown>): Promise<EgressRefusedError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(EgressRefusedError);
  expect((err as EgressRefusedError).message).to.include("EGRESS_ALLOW");
  return err as EgressRefusedError;
}

describe("the egress fetch (real HTTP on loopback)", function () {
  this.timeout(15_000);
  const servers: RecordingServer[] = [];
  const start = async (host: string, handler: RequestListener, port?: number) => {
    const s = await listen(host, handler, port);
    servers.push(s);
    return s;
  };
  after(async () => {
    for (const { server } of servers) server.closeAllConnections();
    await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  it("refuses a redirect from an allowed server to a refused address; the refused server is never reached", async () => {
    const internal = await start("127.0.0.2", answer);
    const allowed = await start("127.0.0.1", (_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.2:${internal.port}/secret` }).end(),
    );
    const egressFetch = createEgressFetch(new EgressPolicy({ allow: parseEgressAllow("127.0.0.1") }));
    const err = await refused(egressFetch(`http://127.0.0.1:${allowed.port}/mcp`, { method: "POST", body: "{}" }));
    expect(err.reason).to.equal("is a loopback address");
    for (const location of [
      `http://2130706434:${internal.port}/`,
      `http://localhost:${internal.port}/`,
      "http://169.254.169.254/latest/meta-data/",
    ]) {
      const bouncer = await start("127.0.0.1", (_req, res) => res.writeHead(302, { location }).end());
      await refused(egressFetch(`http://127.0.0.1:${bouncer.port}/`));
    }
    expect(allowed.hits).to.have.length(1);
    expect(internal.hits).to.deep.equal([]);
    // `redirect: "manual"` hands the redirect back (the MCP SDK follows it through this fetch again).
    const manual = await egressFetch(`http://127.0.0.1:${allowed.port}/mcp`, { redirect: "manual" });
    expect(manual.status).to.equal(307);
    expect(internal.hits).to.deep.equal([]);
  });

  it("checks the address actually connected to: a name that passed the request-time check and then resolves to loopback is refused", async () => {
    const internal = await start("127.0.0.2", answer);
    const resolve = changingResolve({ "rebind.example": [["93.184.216.34"], ["127.0.0.2"]] });
    const policy = new EgressPolicy({ allow: [], resolve });
    await policy.check(`http://rebind.example:${internal.port}/mcp`); // the request-time look saw a public address
    const err = await refused(createEgressFetch(policy)(`http://rebind.example:${internal.port}/mcp`));
    expect(err.message)
      .to.match(/^rebind\.example is refused by the egress policy/)
      .and.not.include("127.0.0.2");
    expect(err.reason).to.equal("resolves to a loopback address");
    expect(resolve.calls).to.deep.equal(["rebind.example", "rebind.example"]);
    expect(internal.hits).to.deep.equal([]);
  });

  it("refuses a name that does not resolve when connecting as it refuses a private one, message for message", async () => {
    // As if the name had resolved when the request came and no longer does (or never did for the worker's resolver).
    const site = await start("127.0.0.2", answer);
    const egressFetch = createEgressFetch(
      new EgressPolicy({ allow: [], resolve: changingResolve({ "inside.example": [["10.0.0.9"]] }) }),
    );
    const lost = await refused(egressFetch(`http://gone.example:${site.port}/mcp`));
    const inside = await refused(egressFetch(`http://inside.example:${site.port}/mcp`));
    expect(lost.reason).to.equal("does not resolve (ENOTFOUND)");
    expect(lost.message.replace("gone.example", "<host>")).to.equal(inside.message.replace("inside.example", "<host>"));
    expect(site.hits).to.deep.equal([]);
  });

  it("checks every redirect hop's connection: a same-origin redirect whose name now resolves elsewhere is refused", async () => {
    // Two servers on one port of two loopback addresses; a port taken on 127.0.0.2 means another try.
    let pair: [RecordingServer, RecordingServer] | null = null;
    for (let attempt = 0; !pair && attempt < 5; attempt++) {
      const first = await start("127.0.0.1", (_req, res) => res.writeHead(308, { location: "/next" }).end());
      const second = await start("127.0.0.2", answer, first.port).catch(() => null);
      if (second) pair = [first, second];
    }
    const [first, internal] = pair!;
    const resolve = changingResolve({ "tools.example": [["127.0.0.1"], ["127.0.0.2"]] });
    const egressFetch = createEgressFetch(new EgressPolicy({ allow: parseEgressAllow("127.0.0.1/32"), resolve }));
    await refused(egressFetch(`http://tools.example:${first.port}/mcp`, { method: "POST", body: "{}" }));
    expect(first.hits.map((h) => h.url)).to.deep.equal(["/mcp"]);
    expect(internal.hits).to.deep.equal([]);
  });

  it("connects where EGRESS_ALLOW allows: a host:port only on that port, a CIDR range for a resolved name", async () => {
    const service = await start("127.0.0.2", (req, res) => res.end(`ok ${req.method}`));
    const other = await start("127.0.0.2", answer);
    const resolve = changingResolve({ "svc.internal": [["127.0.0.2"]] });
    const hostPort = createEgressFetch(
      new EgressPolicy({ allow: parseEgressAllow(`127.0.0.2:${service.port}`), resolve }),
    );
    const res = await hostPort(`http://127.0.0.2:${service.port}/mcp`, { method: "POST", body: "{}" });
    expect([res.status, await res.text()]).to.deep.equal([200, "ok POST"]);
    await refused(hostPort(`http://127.0.0.2:${other.port}/mcp`));
    await refused(hostPort(`http://svc.internal:${service.port}/mcp`)); // a host entry is the host as named
    const cidr = createEgressFetch(new EgressPolicy({ allow: parseEgressAllow("127.0.0.0/30"), resolve }));
    expect(await (await cidr(`http://svc.internal:${other.port}/x`)).text()).to.equal("INTERNAL-SERVICE-ANSWER");
    expect(other.hits).to.have.length(1);
  });

  it("follows allowed redirects as fetch does: 303 becomes a GET, credentials stay behind on another origin", async () => {
    const target = await start("127.0.0.2", (req, res) =>
      res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null })),
    );
    const origin = await start("127.0.0.1", (_req, res) =>
      res.writeHead(303, { location: `http://127.0.0.2:${target.port}/done` }).end(),
    );
    const egressFetch = createEgressFetch(new EgressPolicy({ allow: parseEgressAllow("127.0.0.1, 127.0.0.2") }));
    const res = await egressFetch(`http://127.0.0.1:${origin.port}/start`, {
      method: "POST",
      body: "{}",
      headers: { authorization: "Bearer tok-5" },
    });
    expect(await res.json()).to.deep.equal({ method: "GET", auth: null });
    expect(res.redirected).to.equal(true);
    expect(res.url).to.equal(`http://127.0.0.2:${target.port}/done`);
    expect(origin.hits[0].headers.authorization).to.equal("Bearer tok-5");
  });
});
