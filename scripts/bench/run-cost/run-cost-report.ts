import type { MachineInfo } from "../probes/machine-info";
import type { DatabaseActivity } from "../probes/postgres-activity";
import type { CommandCalls } from "../probes/redis-commandstats";
import { textTable } from "../report/text-table";

/** One measured window of the run-cost scenario: what its answered runs made Redis and Postgres do. */
export interface RunCostWindow {
  label: string;
  clients: number;
  /** Runs answered with a correct body (the denominator of every figure). */
  runs: number;
  failed: number;
  problems: string[];
  redisCalls: CommandCalls;
  postgres: DatabaseActivity;
}

/** Commands shown by name; the rest are summed under "other". */
const NAMED = 12;
/** The tables a run writes. */
const TABLES = ["runs", "run_steps", "run_charges"];

const perRun = (n: number, runs: number) => (runs ? (n / runs).toFixed(2) : "—");
const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

/** The scenario's tables: totals per run for each window, then the commands by name. */
export function renderRunCost(windows: RunCostWindow[], machine: MachineInfo): string {
  const header = [
    `Run cost, counted — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`,
    "npm start's processes from the sources (web; one worker for the agent and swarm queues), a Redis server of their own, the LLM simulator answering at once; per answered run",
  ];
  const totals = textTable([
    ["window", "runs", "Redis commands", "of them EVALSHA", "Postgres commits", "rows inserted", "rows updated (HOT)"],
    ...windows.map((w) => {
      const { postgres: pg } = w;
      const updated = TABLES.reduce((n, t) => n + (pg.updated[t] ?? 0), 0);
      const hot = TABLES.reduce((n, t) => n + (pg.hotUpdated[t] ?? 0), 0);
      return [
        w.label,
        String(w.runs),
        perRun(sum(w.redisCalls), w.runs),
        perRun(w.redisCalls.evalsha ?? 0, w.runs),
        perRun(pg.commits, w.runs),
        TABLES.map((t) => `${t} ${perRun(pg.inserted[t] ?? 0, w.runs)}`).join(", "),
        `${perRun(updated, w.runs)} (${perRun(hot, w.runs)})`,
      ];
    }),
  ]);
  const names = [...new Set(windows.flatMap((w) => Object.keys(w.redisCalls)))]
    .sort((a, b) => (windows[0].redisCalls[b] ?? 0) - (windows[0].redisCalls[a] ?? 0))
    .slice(0, NAMED);
  const byCommand = textTable([
    ["Redis command, per run", ...windows.map((w) => w.label)],
    ...names.map((name) => [name, ...windows.map((w) => perRun(w.redisCalls[name] ?? 0, w.runs))]),
    [
      "other",
      ...windows.map((w) => perRun(sum(w.redisCalls) - names.reduce((n, c) => n + (w.redisCalls[c] ?? 0), 0), w.runs)),
    ],
  ]);
  return [...header, "", totals, "", byCommand].join("\n");
}
