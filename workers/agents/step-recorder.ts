import { setImmediate as yieldToIo } from "node:timers/promises";
import type { DataSource } from "typeorm";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { whenDatabaseAnswers } from "../../shared/db/outage-wait";
import { insertStep } from "../../shared/db/run-finish-writes";
import { RunLeaseLostError } from "../../shared/db/run-lease-check";

/** What one step (an LLM call or a tool call) produced, before it is stored. */
export interface StepOutcome {
  output: unknown;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  provider?: string;
  /** Worked out when the step is stored, off the request's critical path. */
  upstreamCost?: () => number | null;
}

export interface StepMeta {
  agentName: string;
  role: string;
  model: string;
  input: unknown;
}

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
interface StepLease {
  owner: string | null;
  lose(reason: Error): void;
}

const NO_LEASE: StepLease = { owner: null, lose: () => undefined };

/** Storage shared by a run's recorder and all its lanes. */
class StepStore {
  private nextSeq: number;
  readonly finished: Map<string, RunStep>;
  replayed = 0;
  /** Inserts in flight; `flush` waits for them. */
  readonly pending: Promise<void>[] = [];
  readonly listeners: CallListener[] = [];

  constructor(
    readonly ds: DataSource,
    readonly runId: string,
    steps: RunStep[],
    readonly lease: StepLease,
  ) {
    this.finished = new Map(steps.map((s) => [s.step_key, s]));
    this.nextSeq = steps.reduce((max, s) => Math.max(max, s.seq + 1), 0);
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

/**
 * Gives every step of a run a stable key and stores it when it finishes. When a job is retried
 * after a crash, steps already stored are replayed from the database instead of being run again
 * (no LLM call or tool call is repeated). Keys are `<lane>/<n>`: each lane (an agent, a handoff, a
 * parallel branch) numbers its own steps in the order it starts them, which is deterministic even
 * when lanes run in parallel and finish in any order.
 */
export class StepRecorder {
  private nextIndex = 0;

  private constructor(
    private readonly store: StepStore,
    private readonly lanePath: string,
  ) {}

  /**
   * The recorder of a run, given the steps an earlier attempt stored and the lease its steps are
   * written under (none by default: a run claimed without a lease).
   */
  static forRun(ds: DataSource, runId: string, finishedSteps: RunStep[], lease = NO_LEASE): StepRecorder {
    return new StepRecorder(new StepStore(ds, runId, finishedSteps, lease), "");
  }

  /** A sub-recorder whose steps are numbered on their own, under this lane. */
  lane(name: string): StepRecorder {
    return new StepRecorder(this.store, this.lanePath ? `${this.lanePath}/${name}` : name);
  }

  /**
   * The hook for "an LLM or tool call finished": `listener` hears of every finished step of the
   * run, on any lane (job progress and logs, metrics), replayed ones included and flagged.
   */
  onCallFinished(listener: CallListener): void {
    this.store.listeners.push(listener);
  }

  /** Steps replayed from an earlier attempt so far, across all lanes (for logs and tests). */
  get replayed(): number {
    return this.store.replayed;
  }

  /**
   * Waits until every finished step is stored; throws if one could not be. Call it before the
   * run is marked finished.
   */
  async flush(): Promise<void> {
    while (this.store.pending.length) await Promise.all(this.store.pending.splice(0));
  }

  /**
   * Runs `call` as the next step of this lane, or returns the stored result of that step. The
   * step is stored in the background, so the next call need not wait for Postgres: a crash before
   * the insert lands only means that step runs again on the retry.
   */
  async step(meta: StepMeta, call: () => Promise<StepOutcome>): Promise<StepOutcome & { replayed: boolean }> {
    const key = `${this.lanePath}#${this.nextIndex++}`;
    const stored = this.store.finished.get(key);
    if (stored) {
      this.store.replayed++;
      this.store.callFinished({
        agentName: stored.agent_name,
        role: stored.role,
        model: stored.model,
        provider: stored.provider,
        inputTokens: stored.input_tokens,
        outputTokens: stored.output_tokens,
        cost: stored.cost,
        ms: new Date(stored.finished_at).getTime() - new Date(stored.started_at).getTime(),
        replayed: true,
      });
      return {
        output: stored.output,
        inputTokens: stored.input_tokens,
        outputTokens: stored.output_tokens,
        cost: stored.cost,
        replayed: true,
      };
    }
    const startedAt = new Date();
    const outcome = await call();
    const finishedAt = new Date();
    this.store.callFinished({
      agentName: meta.agentName,
      role: meta.role,
      model: meta.model,
      provider: outcome.provider ?? null,
      inputTokens: outcome.inputTokens,
      outputTokens: outcome.outputTokens,
      cost: outcome.cost,
      ms: finishedAt.getTime() - startedAt.getTime(),
      replayed: false,
    });
    const saving = this.persist(key, meta, outcome, startedAt, finishedAt);
    saving.catch(() => undefined); // seen by `flush`; never an unhandled rejection meanwhile
    this.store.pending.push(saving);
    return { ...outcome, replayed: false };
  }

  private async persist(
    key: string,
    meta: StepMeta,
    outcome: StepOutcome,
    startedAt: Date,
    finishedAt: Date,
  ): Promise<void> {
    // Lets the run go on first (its next call, or its final write) and builds the row after, so
    // the price lookup and the row's serialisation are not on the run's critical path.
    await yieldToIo();
    const step = {
      run_id: this.store.runId,
      seq: this.store.takeSeq(),
      step_key: key,
      agent_name: meta.agentName,
      role: meta.role,
      input: meta.input,
      output: outcome.output,
      model: meta.model,
      provider: outcome.provider ?? null,
      input_tokens: outcome.inputTokens,
      output_tokens: outcome.outputTokens,
      cost: outcome.cost,
      upstream_cost: outcome.upstreamCost?.() ?? null,
      started_at: startedAt,
      finished_at: finishedAt,
    };
    // A Postgres restart delays the insert rather than losing the step (and repeating its call).
    const { ds, lease } = this.store;
    await whenDatabaseAnswers(() => insertStep(ds, step, lease.owner)).catch((err: unknown) => {
      if (err instanceof RunLeaseLostError) lease.lose(err); // another execution has the run: stop it
      throw err;
    });
  }
}
