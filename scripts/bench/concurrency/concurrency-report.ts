import type { MachineInfo } from "../probes/machine-info";
import { busyCell, cpuHeaderLine, stealCell } from "../report/cpu-cells";
import { textTable } from "../report/text-table";
import type { HeadlineRow } from "../scenario";
import { CONCURRENT_SWARM } from "../targets/concurrent-swarm-targets";
import type { ConcurrencyBurst } from "./concurrency-measure";

/** The burst's figures against the ideal. */
export interface ConcurrencySummary {
  requests: number;
  succeeded: number;
  failed: number;
  /** Depth x simulated latency: every request answered as if it were alone. */
  idealMs: number;
  wallMs: number;
  ratioToIdeal: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  llmCalls: number;
  expectedLlmCalls: number;
  /** Most LLM calls in flight at the simulator at once, and first to last call, ms. */
  llmPeakInFlight: number;
  llmSpanMs: number;
  /** Process name → peak RSS, MiB. */
  peakRssMiB: Record<string, number>;
}

/** The burst's figures against the ideal (depth x latency) and the expected LLM calls. */
export function summarizeConcurrency(b: ConcurrencyBurst, latencyMs: number): ConcurrencySummary {
  const idealMs = CONCURRENT_SWARM.depth * latencyMs;
  const { burst } = b;
  return {
    requests: burst.requests,
    succeeded: burst.succeeded,
    failed: burst.requests - burst.succeeded,
    idealMs,
    wallMs: burst.wallMs,
    ratioToIdeal: burst.wallMs / idealMs,
    p50Ms: burst.latencyMs.p50,
    p99Ms: burst.latencyMs.p99,
    maxMs: burst.latencyMs.max,
    llmCalls: b.calls.calls,
    expectedLlmCalls: burst.requests * CONCURRENT_SWARM.shape.agents,
    llmPeakInFlight: b.arrivals.peakInFlight,
    llmSpanMs: b.arrivals.spanMs,
    peakRssMiB: Object.fromEntries(b.processes.map((p) => [p.name, Math.round(p.peakRssMiB)])),
  };
}

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1_000).toFixed(2)} s` : "n/a");

/** The scenario's tables: the burst's outcome, then memory and CPU per process. */
export function renderConcurrencyTable(
  sum: ConcurrencySummary,
  b: ConcurrencyBurst,
  machine: MachineInfo,
  latencyMs: number,
  quick: boolean,
): string {
  const what = `${CONCURRENT_SWARM.type} x${CONCURRENT_SWARM.shape.agents}`;
  const title = `Concurrency: ${sum.requests} simultaneous ${what} swarm completion requests, ${latencyMs} ms per LLM call — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`;
  const how =
    `one burst, every request on its own connection${quick ? " (--quick: smoke test, not a result)" : ""}; ideal = depth ${CONCURRENT_SWARM.depth} x ${latencyMs} ms ` +
    `(each request as fast as if it were alone); time to finish = first request sent to last answer\n` +
    cpuHeaderLine(b.cpu, [b.cpu]);
  const main = textTable([
    [
      "requests",
      "succeeded",
      "failed",
      "time to finish",
      "ideal",
      "vs ideal",
      "p50",
      "p99",
      "max",
      "LLM calls",
      "steal",
      "busy",
    ],
    [
      String(sum.requests),
      String(sum.succeeded),
      String(sum.failed),
      s(sum.wallMs),
      s(sum.idealMs),
      `${sum.ratioToIdeal.toFixed(2)} x`,
      s(sum.p50Ms),
      s(sum.p99Ms),
      s(sum.maxMs),
      `${sum.llmCalls} / ${sum.expectedLlmCalls}`,
      stealCell(b.cpu),
      busyCell(b.cpu),
    ],
  ]);
  const perProcess = textTable([
    ["process", "peak RSS", "RSS after", "CPU during the burst", "samples"],
    ...b.processes.map((p) => [
      p.name,
      `${Math.round(p.peakRssMiB)} MiB`,
      `${Math.round(p.endRssMiB)} MiB`,
      `${p.cpuS.toFixed(1)} s (${Math.round(p.cpuPctOfCore)}% of a core)`,
      String(p.samples),
    ]),
  ]);
  const statuses = Object.entries(b.burst.statusCodes)
    .map(([code, n]) => `${code}: ${n}`)
    .join(", ");
  const llm = `LLM calls: ${sum.llmCalls} of ${sum.expectedLlmCalls} expected, at most ${sum.llmPeakInFlight} in flight at once, first to last call ${s(sum.llmSpanMs)}`;
  const tcp = b.tcp
    ? `listen queue overflows during the burst (machine-wide): ${b.tcp.listenOverflows}${b.tcp.listenOverflows ? " (each a dropped connection attempt the client retries after 1 s, 3 s…)" : ""}`
    : "listen queue overflows: n/a";
  return [
    title,
    how,
    "",
    main,
    "",
    `status codes: ${statuses || "none"}`,
    llm,
    tcp,
    "",
    "per process (RSS sampled from /proc while the burst ran):",
    perProcess,
  ].join("\n");
}

/** Its lines in the combined table: time to finish against the ideal, and peak RSS per process kind. */
export function concurrencyHeadline(sum: ConcurrencySummary, b: ConcurrencyBurst): HeadlineRow[] {
  const steal = stealCell(b.cpu);
  const rss = (pattern: RegExp) =>
    Object.entries(sum.peakRssMiB)
      .filter(([name]) => pattern.test(name))
      .map(([, v]) => v)
      .join("+");
  return [
    {
      area: "concurrency",
      figure: `${sum.requests} simultaneous swarms: time to finish`,
      baseline: `ideal ${s(sum.idealMs)}`,
      measured: `${s(sum.wallMs)}, ${sum.succeeded}/${sum.requests} ok`,
      versus: `${sum.ratioToIdeal.toFixed(2)} x`,
      steal,
    },
    {
      area: "concurrency",
      figure: "peak RSS (MiB)",
      baseline: "",
      measured: `web ${rss(/^web/)} · workers ${rss(/^worker/)} · sim ${rss(/^llm-simulator$/)}`,
      versus: "",
      steal,
    },
  ];
}
