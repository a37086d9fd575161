import type { DataSource } from "typeorm";
import type { RunCharge } from "../../shared/db/entities/run-charge.entity";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { whenDatabaseAnswers } from "../../shared/db/outage-wait";
import { RunLeaseLostError } from "../../shared/db/runs/run-leases";
import type { Truncation } from "../../shared/limits/outside-content";
import { AgentOutcomes } from "./agent-outcomes";

/**
 * One finished LLM or tool call (a tool call's `model` is `mcp:<tool>`, its tokens 0). `replayed`:
 * stored by an earlier attempt of the job and returned from Postgres, not made again.
 */
export interface FinishedCall {
  agentName: string;
  role: string;
  model: string;
  provider: string | null;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  ms: number;
  replayed: boolean;
}

/** Told of every finished call of a run, in the order they finish; it must not throw or block. */
export type CallListener = (call: FinishedCall) => void;

/**
 * The lease a run's steps are written under: its owner (null for a run claimed without one), and
 * what to do when a write finds it gone (stop the run).
 */
export interface StepLease {
  owner: string | null;
  lose(reason: Error): void;
}

export const NO_LEASE: StepLease = { owner: null, lose: () => undefined };

/** Storage shared by a run's recorder and all its lanes. */
export class StepStore {
  private nextSeq: number;
  /** Steps an earlier attempt finished, by key: what a retry replays. */
  readonly finished: Map<string, RunStep>;
  /** Calls earlier attempts stored as cut off or interrupted: billed, never replayed. */
  readonly unfinished: RunStep[];
  /** Charges an earlier attempt stored, by key, and those this execution made: each is made once. */
  readonly charges: Map<string, { amount: number; replayed: boolean }>;
  replayed = 0;
  /** Each agent's part in the run so far. */
  readonly outcomes = new AgentOutcomes();
  /** Outside content the run cut to its bounds, replayed steps' included: the answer's `truncated`. */
  readonly truncations: Truncation[] = [];
  /** Inserts in flight; `flush` waits for them. */
  readonly pending: Promise<void>[] = [];
  readonly listeners: CallListener[] = [];

  constructor(
    readonly ds: DataSource,
    readonly runId: string,
    steps: RunStep[],
    readonly lease: StepLease,
    charges: RunCharge[],
  ) {
    // Only a finished step is replayed: a cut-off or interrupted one is billed, and its call made again.
    const finished = (s: RunStep) => (s.status ?? "finished") === "finished";
    this.finished = new Map(steps.filter(finished).map((s) => [s.step_key, s]));
    this.unfinished = steps.filter((s) => !finished(s));
    this.nextSeq = steps.reduce((max, s) => Math.max(max, s.seq + 1), 0);
    this.charges = new Map(charges.map((c) => [c.charge_key, { amount: Number(c.amount), replayed: true }]));
  }

  /** Stores a write in the background; `flush` waits for it and throws what it threw. */
  track(write: Promise<void>): void {
    write.catch(() => undefined); // seen by `flush`; never an unhandled rejection meanwhile
    this.pending.push(write);
  }

  /** A write under the run's lease: a Postgres restart delays it; a lost lease stops the run. */
  async leased(write: () => Promise<boolean>): Promise<boolean> {
    return whenDatabaseAnswers(write).catch((err: unknown) => {
      if (err instanceof RunLeaseLostError) this.lease.lose(err); // another execution has the run: stop it
      throw err;
    });
  }

  takeSeq(): number {
    return this.nextSeq++;
  }

  /** Tells every listener; one that throws is ignored, so watching a run never breaks it. */
  callFinished(call: FinishedCall): void {
    for (const listener of this.listeners) {
      try {
        listener(call);
      } catch {
        // a listener's own trouble (e.g. a metric) is not the run's
      }
    }
  }
}
