import { Counter, Histogram } from "prom-client";
import type { RunKind } from "../db/entities/run.entity";
import { swarmTypeRecord } from "../swarms/swarm-catalog";
import type { FailureCause } from "../failure-cause";
import { PREFIX, workerRegistry } from "./registry";

const registers = [workerRegistry];

const runs = new Counter({
  name: `${PREFIX}runs_total`,
  help: "Runs a worker finished, by kind (agent, swarm, graph_workflow…), swarm type (none but for swarms), outcome (succeeded, incomplete: wound down at its budget, failed, cancelled) and, for a failed run, cause (caller: the request's own doing; service: ours)",
  labelNames: ["kind", "swarm_type", "outcome", "cause"] as const,
  registers,
});

const runDuration = new Histogram({
  name: `${PREFIX}run_duration_seconds`,
  help: "Time from a run's start to its end (retried jobs included), by kind and swarm type",
  labelNames: ["kind", "swarm_type"] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
  registers,
});

/** Which ceiling stopped a run: its deadline, its cost or token limit, or a pool it shares (its batch's, its account's day). */
export type BudgetLimitKind = "time" | "cost" | "tokens" | "shared";

const budgetStops = new Counter({
  name: `${PREFIX}budget_stops_total`,
  help: "Runs stopped by their budget, by the ceiling reached (time, cost, tokens, shared)",
  labelNames: ["kind"] as const,
  registers,
});

/** How a run ended: `incomplete` is a run its budget wound down (it answers with what finished). */
export type RunOutcome = "succeeded" | "incomplete" | "failed" | "cancelled";

export interface RunRecord {
  kind: RunKind;
  /** The request's swarm type (swarm runs); counted under `other` unless it is a catalogue type. */
  swarmType?: string;
  outcome: RunOutcome;
  /** Whose fault a failed run is (`failureCauseOf`); counted only for failed runs. */
  cause?: FailureCause;
  seconds: number;
}

/** Counts one run that ended, and its duration. */
export function countRun(run: RunRecord): void {
  const swarmType =
    run.kind !== "swarm" ? "none" : run.swarmType && swarmTypeRecord(run.swarmType) ? run.swarmType : "other";
  const labels = { kind: run.kind, swarm_type: swarmType };
  runs.inc({ ...labels, outcome: run.outcome, ...(run.outcome === "failed" && run.cause ? { cause: run.cause } : {}) });
  runDuration.observe(labels, run.seconds);
}

export function countBudgetStop(kind: BudgetLimitKind): void {
  budgetStops.inc({ kind });
}
