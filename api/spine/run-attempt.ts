import type { KeyOwner } from "../../shared/auth/api-keys";
import type { RunKind, RunOfKind } from "../../shared/db/entities/run.entity";
import { findRunForUser } from "../../shared/db/runs/run-rows";
import { addLogContext } from "../../shared/logger";
import type { ApiDeps } from "../deps";
import type { Prefer } from "./prefer";

/** The run an earlier attempt of a request started, for a later attempt to answer from. */
export interface EarlierRun {
  runId: string;
  /** The longest wait that ends before the client gives up, as its earlier attempt showed; absent when unknown. */
  waitMs?: number;
}

/**
 * What the HTTP layer knows of a run request besides its body: whether it is another attempt of a
 * request that already started a run (a client's retry, a duplicate `Idempotency-Key`), and who
 * is to hear of the run it answers from.
 */
export interface RunAttempt {
  /**
   * Takes the run an earlier attempt of this request started, for this request to answer from
   * instead of starting one (no other request gets it); null when there is none. Absent when the
   * request cannot be another attempt, so a first attempt costs no look-up.
   */
  takeEarlierRun?(): Promise<EarlierRun | null>;
  /** Told the id of the run the request answers from, as soon as it is stored or taken. */
  runFound: (runId: string) => void;
}

/** What a run request's hooks tell the spine: whether it is another attempt, and its rate-limit verdict if still on its way. */
export interface AttemptHooks {
  attempt?: RunAttempt;
  admission?: Promise<void>;
}

/**
 * The run an earlier attempt of this request started, when the request is another attempt and
 * the run is the caller's and of the kind this use case starts, with the request's wait cut to
 * what its client showed it waits; null when the request is to start its own run. Asked after the
 * rate-limit verdict (a refused request takes nothing) and before anything is written or published.
 */
export async function takeEarlierRun<K extends RunKind>(
  deps: ApiDeps,
  owner: Pick<KeyOwner, "userId">,
  kind: K,
  prefer: Prefer,
  hooks: AttemptHooks,
): Promise<{ run: RunOfKind<K>; prefer: Prefer } | null> {
  const { attempt, admission } = hooks;
  if (!attempt?.takeEarlierRun) return null;
  await admission;
  const earlier = await attempt.takeEarlierRun();
  if (!earlier) return null;
  const run = await findRunForUser(deps.ds, earlier.runId, owner.userId);
  // The attempt's path and key were part of what it was remembered by; this only guards the rest.
  if (!run || run.kind !== kind) return null;
  addLogContext({ runId: run.id }); // the request's lines from here on name its run
  attempt.runFound(run.id);
  const waitMs =
    earlier.waitMs === undefined ? prefer.waitMs : Math.min(prefer.waitMs ?? earlier.waitMs, earlier.waitMs);
  return { run: run as RunOfKind<K>, prefer: { ...prefer, waitMs } };
}
