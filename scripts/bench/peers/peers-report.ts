import type { SequentialResult } from "../client/closed-loop";
import type { LoadResult } from "../client/load-run";
import type { CpuUsage } from "../probes/cpu-usage";
import { stealCell } from "../report/cpu-cells";
import { median } from "../report/stats";
import { textTable } from "../report/text-table";

/** One throughput window of one peer: autocannon's figures and the CPU of every process of the peer. */
export interface PeerWindow {
  load: LoadResult;
  /** Requests the peer finished in the window (2xx answers; for Apiary, runs finished in its database). */
  requests: number;
  /** CPU seconds of the peer's processes over the window. */
  cpuS: number;
  cpu: CpuUsage | null;
  /** 1-minute load average at the end of the window. */
  loadAvg1m: number;
}

/** One round: the simulator alone at one client, then every peer at one client and at many. */
export interface PeersRound {
  round: number;
  order: string[];
  direct: SequentialResult;
  peers: Record<string, { sequential: SequentialResult; window: PeerWindow }>;
}

/** One line of the table: medians over rounds. */
export interface PeerRow {
  name: string;
  does: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  /** One client: p50 over a direct simulator call's p50 in the same round. */
  addedP50Ms: number;
  failures: number;
}

/** The row of peer `name` over all rounds. */
export function summarizePeer(rounds: PeersRound[], name: string, does: string): PeerRow {
  const mine = rounds.map((r) => ({ direct: r.direct, p: r.peers[name] }));
  const m = (pick: (x: (typeof mine)[number]) => number) => median(mine.map(pick));
  let failures = 0;
  for (const { p } of mine) {
    failures += p.sequential.errors + p.sequential.non2xx + p.sequential.badBodies;
    failures += p.window.load.errors + p.window.load.non2xx;
  }
  return {
    name,
    does,
    reqPerSec: m((x) => x.p.window.load.okPerSec),
    p50Ms: m((x) => x.p.window.load.latencyMs.p50),
    p99Ms: m((x) => x.p.window.load.latencyMs.p99),
    cpuMsPerRequest: m((x) => (x.p.window.requests > 0 ? (1_000 * x.p.window.cpuS) / x.p.window.requests : NaN)),
    addedP50Ms: m((x) => x.p.sequential.latencyMs.p50 - x.direct.latencyMs.p50),
    failures,
  };
}

const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
const ratio = (v: number, floor: number) => (floor > 0 && Number.isFinite(v) ? `${(v / floor).toFixed(2)} x` : "n/a");

/** The peers table; the ratios are against the first row (the bare proxy, the floor). */
export function renderPeersTable(rows: PeerRow[], clients: number): string {
  const floor = rows[0];
  return textTable([
    [
      "peer",
      "per request",
      `req/s c=${clients}`,
      "p50 ms",
      "p99 ms",
      "CPU ms/req",
      "c=1 added p50 ms",
      "req/s vs floor",
      "CPU vs floor",
    ],
    ...rows.map((r) => [
      r.name,
      r.does,
      fixed(r.reqPerSec, 0),
      fixed(r.p50Ms, 0),
      fixed(r.p99Ms, 0),
      fixed(r.cpuMsPerRequest, 2),
      fixed(r.addedP50Ms, 2),
      ratio(r.reqPerSec, floor.reqPerSec),
      ratio(r.cpuMsPerRequest, floor.cpuMsPerRequest),
    ]),
  ]);
}

/** Every throughput window with the load average at its end and its steal, so a bad one shows. */
export function renderPeerWindows(rounds: PeersRound[]): string {
  const rows = [["round", "peer", "req/s", "load avg", "steal", "busy"]];
  for (const r of rounds)
    for (const name of r.order) {
      const w = r.peers[name].window;
      rows.push([
        String(r.round),
        name,
        fixed(w.load.okPerSec, 0),
        w.loadAvg1m.toFixed(2),
        stealCell(w.cpu),
        w.cpu ? `${w.cpu.busyPct.toFixed(0)}%` : "n/a",
      ]);
    }
  return textTable(rows);
}
