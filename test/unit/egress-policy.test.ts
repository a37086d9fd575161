import { expect } from "chai";
import type { LookupAddress } from "node:dns";
import { ConfigError, loadConfig } from "../../shared/config";
import { boundedResolve } from "../../shared/net/bounded-resolve";
import { parseEgressAllow } from "../../shared/net/egress-allow";
import { EgressPolicy, EgressRefusedError, type ResolveAll } from "../../shared/net/egress-policy";

/** A resolver that answers from a table, and fails like the system one for other names. */
function fakeResolve(table: Record<string, string[]>): ResolveAll {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

async function refusal(policy: EgressPolicy, url: string): Promise<EgressRefusedError | null> {
  try {
    await policy.check(url);
    return null;
  } catch (err) {
    expect(err, url).to.be.instanceOf(EgressRefusedError);
    return err as EgressRefusedError;
  }
}

/** Every spelling here names a loopback, private, link-local or otherwise non-public address. */
const REFUSED_URLS = [
  "http://127.0.0.1/mcp",
  "http://127.1/mcp",
  "http://2130706433/mcp",
  "http://0x7f000001/mcp",
  "http://0x7f.0.0.1/mcp",
  "http://0177.0.0.1/mcp",
  "http://017700000001/mcp",
  "http://127.0.0.1./mcp",
  "http://127.42.0.9:8080/mcp",
  "http://0.0.0.0/mcp",
  "http://0/mcp",
  "http://[::1]/mcp",
  "http://[0:0:0:0:0:0:0:1]/mcp",
  "http://[::]/mcp",
  "http://[::ffff:127.0.0.1]/mcp",
  "http://[::ffff:7f00:1]/mcp",
  "http://[::ffff:8.8.8.8]/mcp", // an IPv4-mapped form is refused whatever it embeds
  "http://[::127.0.0.1]/mcp", // IPv4-compatible
  "http://[64:ff9b::7f00:1]/mcp", // NAT64
  "http://[64:ff9b:1::a00:1]/mcp", // local-use NAT64
  "http://[2002:7f00:1::1]/mcp", // 6to4
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/mcp", // Teredo
  "http://localhost/mcp",
  "http://LOCALHOST./mcp",
  "http://LocalHost:3000/mcp",
  "http://mcp.localhost/mcp",
  "http://10.0.0.1/mcp",
  "http://172.16.5.4/mcp",
  "http://192.168.1.1/mcp",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fe80::1]/mcp",
  "http://[fd00:ec2::254]/mcp", // the IPv6 instance metadata address
  "http://[fc00::1]/mcp",
  "http://[fec0::1]/mcp", // site-local
  "http://100.64.0.1/mcp", // carrier-grade NAT
  "http://224.0.0.1/mcp",
  "http://[ff02::1]/mcp",
  "http://255.255.255.255/mcp",
  "http://240.0.0.1/mcp",
  "http://192.0.2.1/mcp",
  "http://198.18.0.1/mcp",
  "http://[2001:db8::1]/mcp",
  "http://[100::1]/mcp",
  "ftp://8.8.8.8/mcp",
  "file:///etc/passwd",
];

describe("the egress policy", () => {
  const strict = new EgressPolicy({ allow: [], resolve: fakeResolve({}) });

  it("refuses every spelling of a non-public address, naming EGRESS_ALLOW", async () => {
    for (const url of REFUSED_URLS) {
      const err = await refusal(strict, url);
      expect(err, url).to.not.equal(null);
      expect(err!.code).to.equal("EGRESS_REFUSED");
      expect(err!.message, url).to.include("EGRESS_ALLOW");
    }
  });

  it("lets public addresses through, and says which address a spelling meant", async () => {
    for (const url of [
      "https://93.184.216.34/mcp",
      "http://8.8.8.8:8080/mcp",
      "https://[2606:4700:4700::1111]/mcp",
      "http://1.1.1.1./mcp",
    ]) {
      expect(await refusal(strict, url), url).to.equal(null);
    }
    const spelled = await refusal(strict, "http://2130706433/mcp");
    expect(spelled!.message).to.match(/^127\.0\.0\.1 is refused by the egress policy/);
    expect(spelled!.reason).to.equal("is a loopback address"); // for the operator's log only
  });

  it("resolves names and refuses one whose answers include any refused address, without naming that address", async () => {
    const policy = new EgressPolicy({
      allow: [],
      resolve: fakeResolve({
        "mcp.example.com": ["93.184.216.34"],
        "innocent.example.com": ["127.0.0.1"],
        "mixed.example.com": ["93.184.216.34", "10.1.2.3"],
        "v6.example.com": ["2606:4700::1", "::ffff:169.254.169.254"],
      }),
    });
    expect(await refusal(policy, "https://mcp.example.com/mcp")).to.equal(null);
    const loopback = await refusal(policy, "https://innocent.example.com/mcp");
    expect(loopback!.message)
      .to.match(/^innocent\.example\.com is refused by the egress policy/)
      .and.include("EGRESS_ALLOW");
    expect(loopback!.reason).to.equal("resolves to a loopback address");
    const mixed = await refusal(policy, "https://MIXED.example.com./mcp");
    expect(mixed!.reason).to.equal("resolves to a private address");
    expect(mixed!.message).to.not.include("10.1.2.3").and.not.include("private");
    expect(await refusal(policy, "https://v6.example.com/mcp")).to.not.equal(null);
  });

  it("refuses a name that does not resolve, or not in time, with the very message a private address gets", async () => {
    const hangs = new Set(["slow.example"]);
    const table = fakeResolve({ "public.example": ["93.184.216.34"], "private.example": ["10.1.2.3"] });
    const policy = new EgressPolicy({
      allow: parseEgressAllow("allowed.example"),
      resolve: (hostname) => (hangs.has(hostname) ? new Promise(() => undefined) : table(hostname)),
      resolveTimeoutMs: 50,
    });
    expect(await refusal(policy, "https://public.example/x.png")).to.equal(null);
    expect(await refusal(policy, "https://allowed.example/x.png")).to.equal(null); // never looked up: not in the table
    const started = Date.now();
    const refusals = await Promise.all(
      ["http://cluster-service.invalid/x.png", "http://slow.example/x.png", "http://private.example/x.png"].map((url) =>
        refusal(policy, url),
      ),
    );
    expect(Date.now() - started).to.be.below(2_000); // the timed-out lookup is given up at 50 ms
    expect(refusals.map((r) => r!.reason)).to.deep.equal([
      "does not resolve (ENOTFOUND)",
      "does not resolve (resolving slow.example took over 50 ms)",
      "resolves to a private address",
    ]);
    const literal = await refusal(policy, "http://10.0.0.1/x.png");
    const loopbackName = await refusal(policy, "http://localhost/x.png");
    const messages = [...refusals, literal, loopbackName].map((r) => r!.message.replace(r!.host, "<host>"));
    expect(new Set(messages).size, messages.join("\n")).to.equal(1);
    expect(messages[0]).to.equal(
      "<host> is refused by the egress policy: the service only connects to public http(s) addresses unless the operator allows the host with EGRESS_ALLOW",
    );
  });

  it("looks a host up once for the checks of it under way at once, and again for a later check", async () => {
    const calls: string[] = [];
    const table = fakeResolve({ "cdn.example": ["93.184.216.34"] });
    const policy = new EgressPolicy({
      allow: [],
      resolve: (host) => {
        calls.push(host);
        return table(host);
      },
    });
    const urls = ["https://cdn.example/a.png", "https://cdn.example/b.png", "https://CDN.example./c.png"];
    expect(await Promise.all(urls.map((url) => refusal(policy, url)))).to.deep.equal([null, null, null]);
    expect(calls).to.deep.equal(["cdn.example"]);
    await policy.check("https://cdn.example/d.png"); // nothing is remembered once the lookup has answered
    expect(calls).to.deep.equal(["cdn.example", "cdn.example"]);
  });

  it("refuses a URL that does not parse without repeating it", async () => {
    const err = await refusal(strict, "http://user:hunter2@[::1/x");
    expect(err!.message)
      .to.match(/^the URL is refused by the egress policy/)
      .and.not.include("hunter2");
  });

  it("allows what EGRESS_ALLOW names: a host (any spelling of it, any or one port) or a CIDR range of resolved addresses", async () => {
    const policy = new EgressPolicy({
      allow: parseEgressAllow("mcp.internal, 127.0.0.1:8931, [::1]:9000, 10.20.0.0/16, fd00:1::/32"),
      resolve: fakeResolve({
        "mcp.internal": ["10.9.9.9"],
        "tools.corp": ["10.20.3.4"],
        "other.corp": ["10.21.0.1"],
        "v6.corp": ["fd00:1::5"],
      }),
    });
    expect(await refusal(policy, "http://MCP.internal./mcp")).to.equal(null); // a host entry: whatever it resolves to
    expect(await refusal(policy, "http://127.0.0.1:8931/mcp")).to.equal(null);
    expect(await refusal(policy, "http://2130706433:8931/mcp")).to.equal(null); // the same host, spelled otherwise
    expect(await refusal(policy, "http://127.0.0.1:8932/mcp")).to.not.equal(null); // another port
    expect(await refusal(policy, "http://localhost:8931/mcp")).to.not.equal(null); // another host name
    expect(await refusal(policy, "http://[::1]:9000/mcp")).to.equal(null);
    expect(await refusal(policy, "http://[::1]/mcp")).to.not.equal(null);
    expect(await refusal(policy, "http://tools.corp/mcp")).to.equal(null); // resolves into 10.20.0.0/16
    expect(await refusal(policy, "http://10.20.200.1/mcp")).to.equal(null);
    expect(await refusal(policy, "http://other.corp/mcp")).to.not.equal(null);
    expect(await refusal(policy, "http://v6.corp/mcp")).to.equal(null);
    expect(await refusal(policy, "ftp://mcp.internal/mcp")).to.not.equal(null); // allowed hosts still speak http(s) only
  });

  it("runs at most two request-time lookups at once, and answers every check within its timeout", async () => {
    const pending = new Map<string, (addresses: LookupAddress[]) => void>();
    const started: string[] = [];
    const resolve = boundedResolve(
      (hostname) => {
        started.push(hostname);
        return new Promise((done) => pending.set(hostname, done));
      },
      { concurrency: 2, timeoutMs: 200 },
    );
    const answers = ["a", "b", "c", "d"].map((name) =>
      resolve(`${name}.example`).then(
        (r) => r,
        (e: Error) => e,
      ),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).to.deep.equal(["a.example", "b.example"]); // c and d wait for a slot
    pending.get("a.example")!([{ address: "93.184.216.34", family: 4 }]);
    expect(await answers[0]).to.deep.equal([{ address: "93.184.216.34", family: 4 }]);
    expect(started).to.deep.equal(["a.example", "b.example", "c.example"]);
    // b and c never answer: every caller still hears back within the timeout, d without a lookup.
    const [b, c, d] = await Promise.all(answers.slice(1));
    for (const late of [b, c, d])
      expect(late)
        .to.be.instanceOf(Error)
        .with.property("message")
        .that.match(/took over 200 ms/);
    expect(started).to.not.include("d.example");
  });

  it("parses EGRESS_ALLOW entries and refuses a configuration with a bad one", () => {
    expect(parseEgressAllow(" Mcp.Internal. , mcp.internal:8443,10.0.0.0/8, [fd00::1]:9000, ::1 ,")).to.deep.equal([
      { kind: "host", host: "mcp.internal", port: null },
      { kind: "host", host: "mcp.internal", port: 8443 },
      { kind: "cidr", network: "10.0.0.0", bits: 8 },
      { kind: "host", host: "fd00::1", port: 9000 },
      { kind: "host", host: "::1", port: null },
    ]);
    expect(parseEgressAllow("")).to.deep.equal([]);
    for (const bad of [
      "10.0.0.0/33",
      "mcp.internal:0",
      "mcp.internal:99999",
      "http://mcp.internal",
      "a b",
      "user@host",
    ]) {
      expect(() => parseEgressAllow(bad), bad).to.throw(Error);
      expect(() => loadConfig({ EGRESS_ALLOW: `ok.example, ${bad}` }), bad).to.throw(ConfigError, /EGRESS_ALLOW/);
    }
    expect(loadConfig({}).egress.allow).to.deep.equal([]); // empty by default, in development too
  });
});
