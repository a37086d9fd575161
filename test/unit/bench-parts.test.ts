import { expect } from "chai";
import { parseConcurrencyOptions } from "../../scripts/bench/concurrency/concurrency-options";
import { activityBetween } from "../../scripts/bench/probes/postgres-activity";
import { parseProc } from "../../scripts/bench/probes/proc-accounting";
import { parseCommandstats } from "../../scripts/bench/probes/redis-commandstats";
import { simArrivals } from "../../scripts/bench/probes/sim-journal";
import { parseTcpCounters } from "../../scripts/bench/probes/tcp-counters";

describe("benchmark parts", () => {
  it("reads calls per command from INFO commandstats, subcommands and scripts' commands included", () => {
    const info = [
      "# Commandstats",
      "cmdstat_evalsha:calls=12,usec=900,usec_per_call=75.00,rejected_calls=0,failed_calls=0",
      "cmdstat_config|resetstat:calls=1,usec=5,usec_per_call=5.00,rejected_calls=0,failed_calls=0",
      "cmdstat_hincrby:calls=40,usec=20,usec_per_call=0.50,rejected_calls=0,failed_calls=0\r",
    ].join("\r\n");
    expect(parseCommandstats(info)).to.deep.equal({ evalsha: 12, "config|resetstat": 1, hincrby: 40 });
  });

  it("gives a window's Postgres activity as the counters' differences, tables new in the window from zero", () => {
    const before = { commits: 10, inserted: { runs: 4 }, updated: { runs: 2 }, hotUpdated: { runs: 1 } };
    const after = { commits: 15, inserted: { runs: 9, run_steps: 5 }, updated: { runs: 12 }, hotUpdated: { runs: 4 } };
    expect(activityBetween(before, after)).to.deep.equal({
      commits: 5,
      inserted: { runs: 5, run_steps: 5 },
      updated: { runs: 10 },
      hotUpdated: { runs: 3 },
    });
  });

  it("profiles the concurrency scenario's processes only when asked", () => {
    expect(parseConcurrencyOptions([]).profile).to.equal(false);
    expect(parseConcurrencyOptions(["--workers", "1", "--profile"])).to.include({ workers: 1, profile: true });
  });

  it("reads RSS, its peak and CPU ticks from /proc/<pid>/status and stat, command names with spaces included", () => {
    const status = "Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t11\n";
    // utime 250 and stime 50 ticks are fields 14 and 15; the command name holds a space and a ')'.
    const stat = "4242 (node main) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 11 0 1000 1000000 25600";
    expect(parseProc(status, stat)).to.deep.equal({
      rssBytes: 100 * 1024 * 1024,
      peakRssBytes: 200 * 1024 * 1024,
      cpuTicks: 300,
    });
    expect(parseProc("Name:\tnode\n", stat)).to.equal(null);
  });

  it("finds the listen-queue counters in /proc/net/netstat", () => {
    const netstat = [
      "TcpExt: SyncookiesSent ListenOverflows ListenDrops TW",
      "TcpExt: 0 56 57 9",
      "IpExt: InNoRoutes",
      "IpExt: 0",
    ].join("\n");
    expect(parseTcpCounters(netstat)).to.deep.equal({ listenOverflows: 56, listenDrops: 57 });
    expect(parseTcpCounters("IpExt: InNoRoutes\nIpExt: 0\n")).to.equal(null);
  });

  it("counts the LLM calls in flight together from their arrival times", () => {
    const at = (ms: number) => ({ at: new Date(Date.UTC(2026, 0, 1) + ms).toISOString() });
    // Calls of 1,000 ms: three overlap around t=900..1000, the one at 2,500 is alone.
    const entries = [at(0), at(400), at(999), at(1_000), at(2_500)];
    expect(simArrivals(entries, 1_000)).to.deep.equal({ spanMs: 2_500, peakInFlight: 3 });
    expect(simArrivals([], 1_000)).to.deep.equal({ spanMs: 0, peakInFlight: 0 });
  });
});
