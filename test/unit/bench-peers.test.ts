import { expect } from "chai";
import type { SequentialResult } from "../../scripts/bench/client/closed-loop";
import type { LoadResult } from "../../scripts/bench/client/load-run";
import { PEER_FOLDERS } from "../../scripts/bench/peers/peer-install";
import { PEERS } from "../../scripts/bench/peers/peer-list";
import { processTree } from "../../scripts/bench/probes/proc-accounting";
import { rotation } from "../../scripts/bench/peers/peers-measure";
import { parsePeersOptions } from "../../scripts/bench/peers/peers-options";
import { renderPeersTable, summarizePeer, type PeersRound } from "../../scripts/bench/peers/peers-report";
import { UsageError } from "../../scripts/bench/scenario";

function sequential(p50: number): SequentialResult {
  return {
    target: "t",
    durationS: 1,
    requests: 100,
    requestsPerSec: 100,
    latencyMs: { count: 100, mean: p50, min: p50, p50, p90: p50, p99: p50 * 2, max: p50 * 3 },
    non2xx: 0,
    errors: 0,
    badBodies: 0,
    problems: [],
  };
}

function load(okPerSec: number, p50: number, p99: number): LoadResult {
  return {
    target: "t",
    connections: 50,
    durationS: 10,
    requestsPerSec: okPerSec,
    completedPerSec: okPerSec,
    completed: okPerSec * 10,
    okPerSec,
    latencyMs: { mean: p50, p50, p90: p99, p99, max: p99 },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statusCodes: { "200": okPerSec * 10 },
  };
}

function round(n: number, directP50: number, peers: Record<string, [number, number, number]>): PeersRound {
  const out: PeersRound = { round: n, order: Object.keys(peers), direct: sequential(directP50), peers: {} };
  for (const [name, [rps, cpuS, seqP50]] of Object.entries(peers))
    out.peers[name] = {
      sequential: sequential(seqP50),
      window: { load: load(rps, 40, 90), requests: rps * 10, cpuS, cpu: null, loadAvg1m: 1 },
    };
  return out;
}

describe("the peers benchmark's parts", () => {
  it("pins every package it installs to an exact version", () => {
    for (const folder of Object.values(PEER_FOLDERS))
      for (const spec of folder.packages) expect(spec).to.match(/^(@[\w.-]+\/)?[\w.-]+@\d+\.\d+\.\d+$/);
  });

  it("lists the floor first, then the gateway and both LangGraph.js forms with both graphs", () => {
    expect(PEERS[0].name).to.match(/koa/i);
    const portkey = PEERS[1].target("http://127.0.0.1:1", "http://127.0.0.1:2");
    expect(portkey.headers["x-portkey-custom-host"]).to.equal("http://127.0.0.1:2/v1");
    const server = PEERS.find((p) => p.server === "langgraph-api" && p.llmCalls === 3)!;
    const t = server.target("http://h", "http://s");
    expect(JSON.parse(t.body)).to.deep.include({ assistant_id: "three" });
    expect(t.checkBody(JSON.stringify({ answers: ["a", "b", "c"] }))).to.equal(null);
    expect(t.checkBody(JSON.stringify({ answers: ["a"] }))).to.be.a("string");
  });

  it("finds every descendant of a process once, even with a cycle in the listing", () => {
    const tree: Record<number, number[]> = { 1: [2, 3], 2: [4], 3: [], 4: [1] };
    expect(processTree(1, (pid) => tree[pid] ?? [])).to.deep.equal([1, 2, 3, 4]);
  });

  it("rotates the order by one each round", () => {
    expect(rotation(0, ["a", "b", "c"])).to.deep.equal(["a", "b", "c"]);
    expect(rotation(1, ["a", "b", "c"])).to.deep.equal(["b", "c", "a"]);
    expect(rotation(4, ["a", "b", "c"])).to.deep.equal(["b", "c", "a"]);
    expect(rotation(3, [])).to.deep.equal([]);
  });

  it("takes medians over rounds: req/s, CPU ms per request and c=1 latency added over the same round's direct call", () => {
    const rounds = [
      round(1, 0.2, { p: [1000, 1.5, 0.7] }),
      round(2, 0.3, { p: [900, 1.8, 0.9] }),
      round(3, 0.2, { p: [1100, 2.2, 0.6] }),
    ];
    const row = summarizePeer(rounds, "p", "does");
    expect(row.reqPerSec).to.equal(1000);
    // 1.5 s / 10,000 requests = 0.15 ms; 1.8 / 9,000 = 0.2; 2.2 / 11,000 = 0.2.
    expect(row.cpuMsPerRequest).to.be.closeTo(0.2, 1e-9);
    expect(row.addedP50Ms).to.be.closeTo(0.5, 1e-9);
    expect(row.failures).to.equal(0);
  });

  it("prints ratios against the first row, the floor", () => {
    const rows = [
      {
        name: "floor",
        does: "x",
        reqPerSec: 2000,
        p50Ms: 20,
        p99Ms: 40,
        cpuMsPerRequest: 0.5,
        addedP50Ms: 0.3,
        failures: 0,
      },
      {
        name: "other",
        does: "y",
        reqPerSec: 500,
        p50Ms: 90,
        p99Ms: 200,
        cpuMsPerRequest: 2,
        addedP50Ms: 4,
        failures: 0,
      },
    ];
    const lines = renderPeersTable(rows, 50).split("\n");
    expect(lines[0]).to.include("req/s c=50");
    expect(lines[1]).to.match(/1\.00 x\s+1\.00 x$/);
    expect(lines[2]).to.match(/0\.25 x\s+4\.00 x$/);
  });

  it("reads its flags, --quick as presets that explicit flags override, and refuses bad values", () => {
    expect(parsePeersOptions([])).to.deep.include({ durationS: 10, rounds: 3, clients: 50, quick: false });
    expect(parsePeersOptions(["--quick", "--rounds", "2"])).to.deep.include({ durationS: 3, rounds: 2, quick: true });
    expect(() => parsePeersOptions(["--clients", "0"])).to.throw(UsageError);
    expect(() => parsePeersOptions(["--nope"])).to.throw(UsageError);
  });
});
