import type { DataSource } from "typeorm";
import type { ChargeKind, RunCharge } from "../../shared/db/entities/run-charge.entity";
import type { RunStep, StepStatus } from "../../shared/db/entities/run-step.entity";
import { insertCharge } from "../../shared/db/run-charge-store";
import { insertStep } from "../../shared/db/run-step-store";
import type { Truncation } from "../../shared/limits/outside-content";
import { countLedgerEntry } from "../../shared/metrics/billing";
import type { AgentOutcomes } from "./agent-outcomes";
import { NO_LEASE, StepStore, type CallListener, type StepTrace, type TakenLedger } from "./step-store";

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
 * Thrown by a step's call that ended without its result but had consumed something (a call cut
 * off by a deadline or a cancel, a stream that failed part-way): the recorder stores what it
 * consumed as a `cut_off` step, which is billed and never replayed, then throws `reason` on.
 */
export class CallCutOff extends Error {
  constructor(
    /** The error that cut the call off. */
    readonly reason: unknown,
    readonly consumed: StepOutcome,
  ) {
    super("the call was cut off");
    this.name = "CallCutOff";
  }
}

/** The key an interrupted call is stored under: its step's, and the execution that made it. */
const interruptedKey = (step: string, owner: string) => `${step}!interrupted@${owner}`;

/** What an interrupted call (its worker died while it was in flight) is recorded with. */
export interface InterruptedCall extends StepMeta {
  /** The key of the step the call was making. */
  key: string;
  /** The execution that made it, so its row never takes the key of another's. */
  owner: string;
  outcome: StepOutcome;
  startedAt: Date;
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
  static forRun(
    ds: DataSource,
    runId: string,
    finishedSteps: RunStep[],
    lease = NO_LEASE,
    charges: RunCharge[] = [],
  ): StepRecorder {
    return new StepRecorder(new StepStore(ds, runId, finishedSteps, lease, charges), "");
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

  /** Traces every call the run stores from now on, on any lane (cut-off and interrupted ones included; replayed ones are not stored again). */
  traceTo(trace: StepTrace): void {
    this.store.trace = trace;
  }

  /** Each agent's part in the run so far (shared by every lane): what a run that stops early reports. */
  get outcomes(): AgentOutcomes {
    return this.store.outcomes;
  }

  /** Outside content the run cut so far (shared by every lane): what its answer lists under `truncated`. */
  get truncations(): Truncation[] {
    return this.store.truncations;
  }

  /** The key the next `step` of this lane takes (a charge that pays for that step is keyed by it). */
  nextKey(): string {
    return `${this.lanePath}#${this.nextIndex}`;
  }

  /**
   * Records a charge of the run that is not a call (see `run_charges`) under a key stable across
   * the job's attempts. `replayed`: an earlier attempt stored it (its pools counted it then); it is
   * not stored again. A key recorded twice in one execution is stored once.
   */
  charge(key: string, kind: ChargeKind, agentName: string | null, amount: number): { replayed: boolean } {
    const known = this.store.charges.get(key);
    if (known) return { replayed: known.replayed };
    this.store.charges.set(key, { amount, replayed: false });
    const { ds, runId } = this.store;
    const row = { run_id: runId, charge_key: key, kind, agent_name: agentName, amount };
    void this.store.deferRow(
      "charges",
      () => row,
      (charge, owner) => insertCharge(ds, charge, owner),
      () => countLedgerEntry(kind, amount),
    );
    return { replayed: false };
  }

  /** The calls earlier attempts stored as cut off or interrupted (billed, never replayed). */
  earlierUnfinishedSteps(): readonly RunStep[] {
    return this.store.unfinished;
  }

  /** The interrupted call an earlier attempt stored for the step `key` the execution `owner` was making, if any. */
  storedInterruption(key: string, owner: string): RunStep | undefined {
    const stored = interruptedKey(key, owner);
    return this.store.unfinished.find((step) => step.step_key === stored);
  }

  /** Whether this lane's next step is one an earlier attempt finished: it replays, making no call. */
  willReplay(): boolean {
    return this.store.finished.has(this.nextKey());
  }

  /** The step of this key an earlier attempt finished and stored, if any. */
  storedStep(key: string): RunStep | undefined {
    return this.store.finished.get(key);
  }

  /** Whether an earlier attempt of the job stored the charge of this key. */
  madeEarlier(key: string): boolean {
    return this.store.charges.get(key)?.replayed === true;
  }

  /** The sum of the charges of the run so far whose keys start with `prefix` (stored by earlier attempts, or made by this one). */
  chargedSoFar(prefix: string): number {
    let sum = 0;
    for (const [key, { amount }] of this.store.charges) if (key.startsWith(prefix)) sum += amount;
    return sum;
  }

  /**
   * Stores a call its worker's death interrupted (see `InterruptedCall`), once, billed what it
   * consumed; resolves once it is stored.
   */
  async interrupted(call: InterruptedCall): Promise<void> {
    const key = interruptedKey(call.key, call.owner);
    await this.persist(key, call, call.outcome, call.startedAt, new Date(), "interrupted");
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
   * For the run's completion: takes the steps and charges not sent yet, which the completion
   * stores in its own statement, and waits until the others are stored (throws if one could not
   * be). `stored` is told what the completion stored.
   */
  async unsaved(): Promise<TakenLedger> {
    const taken = this.store.takeUnsent();
    await this.flush();
    return taken;
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
    let outcome: StepOutcome;
    try {
      outcome = await call();
    } catch (err) {
      if (!(err instanceof CallCutOff)) throw err;
      // Stored under a key of its own: the step's key stays free for the call to be made again.
      const cutKey = `${key}!cut_off@${this.store.lease.owner ?? "unleased"}`;
      void this.persist(cutKey, meta, err.consumed, startedAt, new Date(), "cut_off");
      throw err.reason;
    }
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
    void this.persist(key, meta, outcome, startedAt, finishedAt, "finished");
    return { ...outcome, replayed: false };
  }

  private persist(
    key: string,
    meta: StepMeta,
    outcome: StepOutcome,
    startedAt: Date,
    finishedAt: Date,
    status: StepStatus,
  ): Promise<void> {
    // The row is built when it is sent (or taken by the completion), so the price lookup and its
    // serialisation are not on the run's critical path.
    const build = (): RunStep =>
      this.store.traced({
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
        status,
      });
    const counted = (step: RunStep) => countLedgerEntry(meta.role === "tool" ? "tool_call" : "llm_call", step.cost);
    // A Postgres restart delays the insert rather than losing the step (and repeating its call).
    return this.store.deferRow("steps", build, (step, owner) => insertStep(this.store.ds, step, owner), counted);
  }
}
