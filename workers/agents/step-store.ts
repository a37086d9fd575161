import { setImmediate as yieldToIo } from "node:timers/promises";
import type { DataSource } from "typeorm";
import type { RunCharge } from "../../shared/db/entities/run-charge.entity";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { whenDatabaseAnswers } from "../../shared/db/outage-wait";
import { RunLeaseLostError } from "../../shared/db/runs/run-leases";
import type { StoredLedger, UnsavedLedger } from "../../shared/db/runs/run-results";
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

/** Where the calls a run stores are traced (`workers/tracing/run-trace.ts`); it must not throw or block. */
export interface StepTrace {
  /** A call's `run_steps` row, as it is built to be stored; its input and output never reach a span. */
  stored(step: RunStep): void;
}

/**
 * The lease a run's steps are written under: its owner (null for a run claimed without one), and
 * what to do when a write finds it gone (stop the run).
 */
export interface StepLease {
  owner: string | null;
  lose(reason: Error): void;
}

export const NO_LEASE: StepLease = { owner: null, lose: () => undefined };

/** The rows of a run's ledger its completion is to store, as they are gathered. */
export interface LedgerRows {
  steps: UnsavedLedger["steps"][number][];
  charges: UnsavedLedger["charges"][number][];
}

/** A ledger row (a step or a charge) waiting for its turn to be stored on its own. */
export interface UnsentRow {
  /** Stores the row on its own. */
  send(): Promise<void>;
  /** Builds the row into the completion's rows; returns what to do once the completion says what it stored. */
  takeInto(rows: LedgerRows): (stored: StoredLedger) => void;
}

/** The rows the completion takes from a run's store, and what to tell them once it has stored them. */
export interface TakenLedger {
  ledger: UnsavedLedger;
  stored(stored: StoredLedger): void;
}

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
  /** The run's trace, told of each call stored (null while tracing is off: nothing is built for it). */
  trace: StepTrace | null = null;

  /** A step's row, told to the run's trace as it is built (off the call's critical path, as the row is). */
  traced(step: RunStep): RunStep {
    this.trace?.stored(step);
    return step;
  }
  /** Rows whose turn to be sent has not come: the run's completion may take them (see `defer`). */
  private readonly unsent = new Set<UnsentRow>();

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

  /**
   * Stores a ledger row in the background, after the run has had a turn of the event loop: a run
   * that ends meanwhile (its last call's step) hands the row to its completion, which stores it in
   * its own statement, so it costs no statement and no wait of its own. Resolves once the row is
   * stored, or taken.
   */
  defer(row: UnsentRow): Promise<void> {
    this.unsent.add(row);
    const write = (async () => {
      await yieldToIo();
      if (this.unsent.delete(row)) await row.send(); // else the completion took it
    })();
    this.track(write);
    return write;
  }

  /**
   * Stores a step or a charge under the run's lease (see `defer` and `leased`): `insert` stores it
   * on its own, `counted` is told when it was stored, on its own or by the completion.
   */
  deferRow<K extends keyof LedgerRows>(
    kind: K,
    build: () => LedgerRows[K][number],
    insert: (row: LedgerRows[K][number], owner: string | null) => Promise<boolean>,
    counted: (row: LedgerRows[K][number]) => void,
  ): Promise<void> {
    return this.defer({
      send: async () => {
        const row = build();
        if (await this.leased(() => insert(row, this.lease.owner))) counted(row);
      },
      takeInto: (rows) => {
        const row = build();
        (rows[kind] as LedgerRows[K][number][]).push(row);
        const stored = (done: StoredLedger) =>
          "seq" in row ? done.steps.includes(row.seq) : done.charges.includes(row.charge_key);
        return (done) => {
          if (stored(done)) counted(row);
        };
      },
    });
  }

  /** Takes every row not sent yet, for the run's completion to store (see `defer`). */
  takeUnsent(): TakenLedger {
    const rows: LedgerRows = { steps: [], charges: [] };
    const told = [...this.unsent].map((row) => row.takeInto(rows));
    this.unsent.clear();
    return { ledger: rows, stored: (stored) => told.forEach((tell) => tell(stored)) };
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
