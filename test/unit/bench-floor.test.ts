import { expect } from "chai";
import type { SequentialResult } from "../../scripts/bench/client/closed-loop";
import type { LoadResult } from "../../scripts/bench/client/load-run";
import type { FloorRound } from "../../scripts/bench/floor/floor-measure";
import { parseFloorOptions } from "../../scripts/bench/floor/floor-options";
import { byRow, renderFloorTable, rowOf, summarizeSubject } from "../../scripts/bench/floor/floor-report";
import { UsageError } from "../../scripts/bench/scenario";

function sequential(p50: number, p99: number): SequentialResult {
  return {
    target: "t",
    durationS: 1,
    requests: 10,
    requestsPerSec: 10,
    latencyMs: { count: 10, min: p50, mean: p50, p50, p90: p99, p99, max: p99 },
    non2xx: 0,
    errors: 0,
    badBodies: 0,
    problems: [],
  };
}

function load(okPerSec: number, cpuByRole: Record<string, number>, runs: number) {
  return {
    okPerSec,
    errors: 0,
    non2xx: 0,
    window: { cpuByRole, runs, cpu: null, loadAvg1m: 1 },
  } as unknown as LoadResult & FloorRound["subjects"][string]["agent"];
}

describe("the floor benchmark's parts", () => {
  it("parses its flags, --quick presets giving way to explicit ones, bad values a usage error", () => {
    expect(parseFloorOptions([])).to.deep.equal({ durationS: 10, warmupS: 3, rounds: 3, quick: false, profile: false });
    expect(parseFloorOptions(["--quick", "--rounds", "2"])).to.deep.equal({
      durationS: 3,
      warmupS: 1,
      rounds: 2,
      quick: true,
      profile: false,
    });
    expect(parseFloorOptions(["--profile", "--duration", "2.5"]).durationS).to.equal(2.5);
    expect(() => parseFloorOptions(["--rounds", "1.5"])).to.throw(UsageError);
    expect(() => parseFloorOptions(["--baseline", "main"])).to.throw(UsageError);
  });

  it("counts the real agent worker and the floor's worker in one row, the real stack's polling workers apart", () => {
    expect(rowOf("worker-agent")).to.equal("worker");
    expect(rowOf("worker")).to.equal("worker");
    expect(rowOf("worker-swarm")).to.equal("idle workers");
    expect(rowOf("redis")).to.equal("redis");
    expect(byRow({ web: 1, "worker-agent": 2, "worker-swarm": 0.25, "worker-chain": 0.5 })).to.deep.equal({
      web: 1,
      worker: 2,
      "idle workers": 0.75,
    });
  });

  it("summarizes each subject over rounds (medians, latency added over the simulator) and tabulates real / floor", () => {
    const round = (i: number, realWeb: number): FloorRound => ({
      round: i,
      order: ["real", "floor-A"],
      direct: sequential(1, 2),
      subjects: {
        real: {
          sequential: sequential(10, 22),
          agent: load(500, { web: realWeb, "worker-agent": 2, redis: 1 }, 1_000),
        },
        "floor-A": { sequential: sequential(3, 6), agent: load(1_000, { web: 0.5, worker: 1, redis: 0.5 }, 1_000) },
      },
    });
    const rounds = [round(1, 1), round(2, 3), round(3, 2)];
    const real = summarizeSubject(rounds, "real");
    expect(real).to.deep.include({ addedP50Ms: 9, addedP99Ms: 20, perSec: 500, failures: 0 });
    expect(real.cpu).to.deep.equal({ byRole: { web: 2, worker: 2, redis: 1 }, total: 5 });
    const floor = summarizeSubject(rounds, "floor-A");
    expect(floor.cpu.total).to.equal(2);
    const lines = renderFloorTable(["real", "floor-A"], { real, "floor-A": floor }).split("\n");
    expect(lines[0]).to.match(/^per single-agent run\s+real\s+floor-A\s+real \/ floor-A$/);
    expect(lines.find((l) => l.startsWith("CPU ms: all processes"))).to.match(/5\.00\s+2\.00\s+2\.50 x$/);
    expect(lines.find((l) => l.startsWith("answers/s"))).to.match(/500\s+1000\s+0\.50 x$/);
    expect(lines.find((l) => l.includes("p50 (ms)"))).to.match(/\+9\.00\s+\+2\.00\s+4\.50 x$/);
  });
});
