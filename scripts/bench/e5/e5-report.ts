import type { BenchOptions } from "../bench-options";
import type { CpuUsage } from "../probes/cpu-usage";
import type { MachineInfo } from "../probes/machine-info";
import { busyCell, cpuHeaderLine, stealCell } from "../report/cpu-cells";
import { median } from "../report/stats";
import { textTable } from "../report/text-table";
import { HIGH_CONCURRENCY, type AgentRound } from "./e5-measure";

/** Medians over rounds for one target, plus error totals over every measured run. */
interface AgentSide {
  c1P50Ms: number;
  c1P99Ms: number;
  c1RequestsPerSec: number;
  c50RequestsPerSec: number;
  c50P50Ms: number;
  c50P99Ms: number;
  errors: number;
  non2xx: number;
  badBodies: number;
}

/** The figures the table shows. */
export interface AgentSummary {
  direct: AgentSide;
  service: AgentSide;
  addedP50Ms: number;
  addedP99Ms: number;
  c50ThroughputRatio: number;
}

function side(rounds: AgentRound[], name: string): AgentSide {
  const m = (pick: (r: AgentRound) => number) => median(rounds.map(pick));
  let errors = 0;
  let non2xx = 0;
  let badBodies = 0;
  for (const r of rounds) {
    const seq = r.sequential[name];
    errors += seq.errors + r.c1[name].errors + r.c50[name].errors;
    non2xx += seq.non2xx + r.c1[name].non2xx + r.c50[name].non2xx;
    badBodies += seq.badBodies;
  }
  return {
    c1P50Ms: m((r) => r.sequential[name].latencyMs.p50),
    c1P99Ms: m((r) => r.sequential[name].latencyMs.p99),
    c1RequestsPerSec: m((r) => r.c1[name].requestsPerSec),
    c50RequestsPerSec: m((r) => r.c50[name].requestsPerSec),
    c50P50Ms: m((r) => r.c50[name].latencyMs.p50),
    c50P99Ms: m((r) => r.c50[name].latencyMs.p99),
    errors,
    non2xx,
    badBodies,
  };
}

/** Medians over rounds and the service-vs-direct differences. */
export function summarize(rounds: AgentRound[]): AgentSummary {
  const direct = side(rounds, "direct");
  const service = side(rounds, "service");
  return {
    direct,
    service,
    addedP50Ms: service.c1P50Ms - direct.c1P50Ms,
    addedP99Ms: service.c1P99Ms - direct.c1P99Ms,
    c50ThroughputRatio: service.c50RequestsPerSec / direct.c50RequestsPerSec,
  };
}

/** True when any measured run of either target saw an error, a non-2xx or a wrong body. */
export function hasFailures(s: AgentSummary): boolean {
  return [s.direct, s.service].some((x) => x.errors + x.non2xx + x.badBodies > 0);
}

const ms = (v: number) => v.toFixed(2);
// autocannon latencies are whole ms; a median over an even number of rounds can end in .5.
const wholeMs = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
const rps = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const plusMs = (v: number) => `${v >= 0 ? "+" : ""}${v.toFixed(2)} ms`;
const plusWholeMs = (v: number) => `${v >= 0 ? "+" : ""}${wholeMs(v)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)} x`;
const failures = (x: AgentSide) => `${x.errors} / ${x.non2xx}${x.badBodies ? ` (+${x.badBodies} bad bodies)` : ""}`;

/** The main table, as in the brief: one row per figure, direct vs service vs difference. */
export function renderAgentTable(
  s: AgentSummary,
  machine: MachineInfo,
  loadAfter: number,
  opts: BenchOptions,
  cpu: { overall: CpuUsage | null; rounds: AgentRound[] },
): string {
  const { direct: d, service: v } = s;
  const c = HIGH_CONCURRENCY;
  const title = `Agent completion (POST /v1/agent/completions) — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`;
  const how =
    `${opts.rounds} round(s) x ${opts.durationS} s per run, medians over rounds` +
    `${opts.quick ? " (--quick: smoke test, not a result)" : ""}; ` +
    `c=1 latency from a sequential hrtime loop, c=${c} figures from autocannon (1 ms latency resolution)\n` +
    // Benchmark and service share the CPUs; a high load average before we start means someone else
    // was using them too, and the figures are noisier than the table suggests.
    `load average (1 min): ${machine.loadAvg1m.toFixed(2)} before set-up, ${loadAfter.toFixed(2)} after measuring, on ${machine.cores} cores\n` +
    cpuHeaderLine(
      cpu.overall,
      cpu.rounds.map((r) => r.cpu),
    );
  const table = textTable([
    ["scenario", "direct (simulator)", "through Apiary", "added / ratio"],
    ["c=1 latency p50 (ms)", ms(d.c1P50Ms), ms(v.c1P50Ms), plusMs(s.addedP50Ms)],
    ["c=1 latency p99 (ms)", ms(d.c1P99Ms), ms(v.c1P99Ms), plusMs(s.addedP99Ms)],
    [
      "c=1 throughput (req/s)",
      rps(d.c1RequestsPerSec),
      rps(v.c1RequestsPerSec),
      ratio(v.c1RequestsPerSec, d.c1RequestsPerSec),
    ],
    [
      `c=${c} throughput (req/s)`,
      rps(d.c50RequestsPerSec),
      rps(v.c50RequestsPerSec),
      `${s.c50ThroughputRatio.toFixed(2)} x`,
    ],
    [`c=${c} latency p50 (ms)`, wholeMs(d.c50P50Ms), wholeMs(v.c50P50Ms), plusWholeMs(v.c50P50Ms - d.c50P50Ms)],
    [`c=${c} latency p99 (ms)`, wholeMs(d.c50P99Ms), wholeMs(v.c50P99Ms), plusWholeMs(v.c50P99Ms - d.c50P99Ms)],
    ["errors / non-2xx", failures(d), failures(v), ""],
  ]);
  return `${title}\n${how}\n\n${table}`;
}

/** The round's steal and, when one run of it was clearly worse, that run's: a spike can hit one target only. */
function roundSteal(r: AgentRound): string {
  const worst = Math.max(...Object.values(r.cpuByRun).map((c) => c?.stealPct ?? 0));
  return r.cpu && worst >= r.cpu.stealPct + 1 ? `${stealCell(r.cpu)} (max ${worst.toFixed(1)}%)` : stealCell(r.cpu);
}

/** One line per round, so the spread between rounds (the noise) is visible next to the medians. */
export function renderRoundsTable(rounds: AgentRound[]): string {
  const c = HIGH_CONCURRENCY;
  const rows = [
    [
      "round",
      "first",
      "direct p50",
      "service p50",
      "direct p99",
      "service p99",
      `direct c=${c}`,
      `service c=${c}`,
      "queue drain",
      "steal",
      "busy",
    ],
  ];
  for (const r of rounds) {
    rows.push([
      String(r.round),
      r.order[0],
      ms(r.sequential.direct.latencyMs.p50),
      ms(r.sequential.service.latencyMs.p50),
      ms(r.sequential.direct.latencyMs.p99),
      ms(r.sequential.service.latencyMs.p99),
      `${rps(r.c50.direct.requestsPerSec)}/s`,
      `${rps(r.c50.service.requestsPerSec)}/s`,
      `${Math.max(...r.queueDrainMs)} ms`,
      roundSteal(r),
      busyCell(r.cpu),
    ]);
  }
  return textTable(rows, 2);
}

/** What went wrong in the measured runs, for the lines under the table. */
export function failureDetails(rounds: AgentRound[]): string[] {
  const out: string[] = [];
  for (const r of rounds) {
    for (const [kind, results] of [
      ["c=1", r.c1],
      [`c=${HIGH_CONCURRENCY}`, r.c50],
    ] as const) {
      for (const [name, x] of Object.entries(results)) {
        if (x.errors || x.non2xx) {
          out.push(
            `round ${r.round} ${name} ${kind}: ${x.errors} errors (${x.timeouts} timeouts), status codes ${JSON.stringify(x.statusCodes)}`,
          );
        }
      }
    }
    for (const [name, x] of Object.entries(r.sequential)) {
      if (x.problems.length) out.push(`round ${r.round} ${name} sequential: ${x.problems.join("; ")}`);
    }
  }
  return out;
}
