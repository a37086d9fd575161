import { expect } from "chai";
import { defaultBaseline } from "../../scripts/bench/deployed/checkouts";
import type { LoadWindow } from "../../scripts/bench/deployed/deployed-measure";
import {
  ratioCell,
  renderCpuTable,
  renderFigures,
  renderMemoryTable,
} from "../../scripts/bench/deployed/deployed-report";
import { cpuPerRun, type StackSummary } from "../../scripts/bench/deployed/deployed-summary";
import {
  classifyPostgresProcess,
  cpuMsPerRun,
  cpuSeconds,
  parseStatTimes,
  recordTicks,
  type TickSpan,
} from "../../scripts/bench/probes/proc-accounting";
import { deployedProcesses, metricsPortCount, withMetricsPort } from "../../scripts/bench/deployed/procfile-commands";
import { roundOrder, soakSlices } from "../../scripts/bench/deployed/schedule";

const PROCFILE = [
  { name: "web", command: "node dist/api/main.js" },
  { name: "worker-swarm", command: "node dist/workers/main.js --queues swarm --metrics-port 9464" },
  { name: "worker-agent", command: "node dist/workers/main.js --queues agent --metrics-port=9465" },
  { name: "release", command: "node dist/scripts/migrate.js" },
];

describe("the as-deployed benchmark's parts", () => {
  it("reads pid, parent and utime+stime from /proc/<pid>/stat, a command name with spaces and ')' included", () => {
    // utime 250 and stime 50 are fields 14 and 15; ppid 7010 is field 4.
    const stat =
      "4242 (postgres: x) y) S 7010 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 11 0 1000 1000000 25600\n";
    expect(parseStatTimes(stat)).to.deep.equal({ pid: 4242, ppid: 7010, cpuTicks: 300 });
    expect(parseStatTimes("garbage")).to.equal(null);
  });

  it("counts each process's ticks from its first to its last reading, in CPU seconds and ms per run", () => {
    const spans = new Map<number, TickSpan>();
    recordTicks(spans, 1, 100);
    recordTicks(spans, 2, 40); // a connection that appeared later: counted from here
    recordTicks(spans, 1, 150);
    recordTicks(spans, 2, 65);
    expect(cpuSeconds(spans.values())).to.equal(0.75);
    expect(cpuMsPerRun(0.75, 300)).to.equal(2.5);
    expect(cpuMsPerRun(0.75, 0)).to.be.NaN;
  });

  it("tells the stack's Postgres backends from server processes and other databases' backends", () => {
    const title = (s: string) => s.replace(/ /g, "\0");
    const db = "apiary_bench_current";
    expect(classifyPostgresProcess(title(`postgres: 15/main: apiary ${db} 127.0.0.1(51234) idle`), db)).to.equal(
      "backend",
    );
    expect(classifyPostgresProcess(title(`postgres: 15/main: autovacuum worker ${db}`), db)).to.equal("backend");
    expect(classifyPostgresProcess(title("postgres: 15/main: checkpointer"), db)).to.equal("server");
    expect(classifyPostgresProcess(title("postgres: 15/main: walwriter"), db)).to.equal("server");
    expect(classifyPostgresProcess(title("postgres: 15/main: apiary apiary_test_9 127.0.0.1(5555) idle"), db)).to.equal(
      "other-database",
    );
    expect(classifyPostgresProcess(title("postgres: 15/main: autovacuum worker apiary_test_9"), db)).to.equal(
      "other-database",
    );
  });

  it("starts the Procfile's processes as written, each worker on its own metrics port, and finds the release step", () => {
    expect(metricsPortCount(PROCFILE)).to.equal(2);
    const plan = deployedProcesses(PROCFILE, "/usr/bin/node20", [40001, 40002]);
    expect(plan.release.argv).to.deep.equal(["/usr/bin/node20", "dist/scripts/migrate.js"]);
    expect(plan.processes).to.deep.equal([
      { name: "web", argv: ["/usr/bin/node20", "dist/api/main.js"] },
      {
        name: "worker-swarm",
        argv: ["/usr/bin/node20", "dist/workers/main.js", "--queues", "swarm", "--metrics-port", "40001"],
      },
      {
        name: "worker-agent",
        argv: ["/usr/bin/node20", "dist/workers/main.js", "--queues", "agent", "--metrics-port=40002"],
      },
    ]);
    expect(withMetricsPort(["a", "b"], 1)).to.deep.equal(["a", "b"]);
    expect(() => deployedProcesses(PROCFILE.slice(0, 3), "node", [1, 2])).to.throw(/release/);
    expect(() =>
      deployedProcesses([{ name: "web", command: "npx tsx api/main.ts" }, PROCFILE[3]], "node", []),
    ).to.throw(/node/);
  });

  it("interleaves the stacks: the first flips every round, the soak alternates slices of equal total length", () => {
    expect(roundOrder(0, ["current", "baseline"])).to.deep.equal(["current", "baseline"]);
    expect(roundOrder(1, ["current", "baseline"])).to.deep.equal(["baseline", "current"]);
    const slices = soakSlices(1.25, 30, ["c", "b"]);
    expect(slices.map((s) => `${s.stack}${s.seconds}`)).to.deep.equal(["c30", "b30", "b30", "c30", "c15", "b15"]);
    const total = (name: string) => slices.filter((s) => s.stack === name).reduce((a, s) => a + s.seconds, 0);
    expect([total("c"), total("b")]).to.deep.equal([75, 75]);
  });

  it("defaults the baseline to main, or main's previous commit when this checkout is main", () => {
    expect(defaultBaseline("aaa", "bbb")).to.equal("main");
    expect(defaultBaseline("aaa", "aaa")).to.equal("main~1");
  });

  it("takes CPU per run as the median over windows, per process and in total, and tabulates it with ratios", () => {
    const w = (web: number, redis: number, runs: number): LoadWindow => ({
      cpuByRole: { web, redis },
      runs,
      cpu: null,
      loadAvg1m: 0.5,
    });
    const cur = cpuPerRun([w(1, 0.5, 1_000), w(2, 0.5, 1_000), w(1.5, 0.5, 1_000)]);
    expect(cur).to.deep.equal({ byRole: { web: 1.5, redis: 0.5 }, total: 2 });
    const base = cpuPerRun([w(3, 1, 1_000)]);
    const table = renderCpuTable("agent completion", cur, base);
    expect(table.split("\n")[1]).to.match(/^web\s+1\.50\s+3\.00\s+0\.50 x$/);
    expect(table.split("\n")[3]).to.match(/^all processes\s+2\.00\s+4\.00\s+0\.50 x$/);
    expect(ratioCell(1, 0)).to.equal("n/a");
    expect(ratioCell(NaN, 1)).to.equal("n/a");
  });

  it("prints every figure of the as-deployed comparison with current, baseline and their ratio", () => {
    const side = (scale: number): StackSummary => ({
      addedP50Ms: 2 * scale,
      addedP99Ms: 6 * scale,
      agentFewPerSec: 300 / scale,
      agentFewP50Ms: 30 * scale,
      agentPerSec: 500 / scale,
      agentP50Ms: 90 * scale,
      swarmPerSec: 200 / scale,
      cpuPerAgentRun: { byRole: {}, total: 3 * scale },
      cpuPerSwarm: { byRole: {}, total: 7 * scale },
      failures: 0,
    });
    const lines = renderFigures(side(1), side(2), 20).split("\n");
    expect(lines[0]).to.match(/^figure\s+current\s+baseline\s+current \/ baseline$/);
    expect(lines[1]).to.match(/^agent c=1 added over the simulator, p50 \(ms\)\s+\+2\.00\s+\+4\.00\s+0\.50 x$/);
    expect(lines[3]).to.match(/^agent c=10 keep-alive, completions\/s\s+300\s+150\s+2\.00 x$/);
    expect(lines[4]).to.match(/^agent c=10 keep-alive, p50 \(ms\)\s+30\.0\s+60\.0\s+0\.50 x$/);
    expect(lines[5]).to.match(/^agent c=50 keep-alive, completions\/s\s+500\s+250\s+2\.00 x$/);
    expect(lines[8]).to.match(/^CPU per agent completion, all processes \(ms\)\s+3\.00\s+6\.00\s+0\.50 x$/);
    expect(lines[9]).to.match(/^CPU per 3-agent swarm, all processes \(ms\)\s+7\.00\s+14\.00\s+0\.50 x$/);
  });

  it("reports a stack whose queue stopped draining in the soak, and the minute it happened in", () => {
    const usage = (name: string, peak: number, end: number) => ({
      name,
      peakRssMiB: peak,
      endRssMiB: end,
      cpuS: 0,
      cpuPctOfCore: 0,
      samples: 1,
    });
    const table = renderMemoryTable(
      {
        rounds: [usage("current worker-agent", 200, 190), usage("baseline worker-agent", 210, 200)],
        soak: {
          minutes: 10,
          afterFirstMinute: [usage("current worker-agent", 230, 230), usage("baseline worker-agent", 400, 400)],
          whole: [usage("current worker-agent", 240, 235), usage("baseline worker-agent", 780, 775)],
          stalled: { baseline: { minute: 7, error: "queue 'agent' still has 50 jobs after 120000 ms" } },
        },
      },
      ["current", "baseline"],
    );
    expect(table).to.match(/worker-agent\s+200 \/ 190\s+210 \/ 200\s+230 \/ 240 \/ 235\s+400 \/ 780 \/ 775/);
    expect(table).to.include(
      "baseline stopped draining in minute 7 of its soak (queue 'agent' still has 50 jobs after 120000 ms)",
    );
  });
});
