import bs58 from "bs58";
import type { Keypair } from "@solana/web3.js";
import type { Run } from "../../shared/db/entities/run.entity";
import { markLaunchFailed } from "../../shared/db/token-launch-outcome-store";
import type { JobDescription } from "../../shared/queues/job-description";
import { enqueue } from "../../shared/queues/queues";
import { accountPrefix } from "../../shared/queues/shards";
import { depositLaunchKey, destroyLaunchKey } from "../../shared/secrets/launch-keys";
import type { ApiDeps } from "../deps";
import { enqueueAndAwait } from "../spine/wait-for-run";

/** A stored launch and its queued run. */
export interface StoredLaunch {
  runId: string;
  launchId: string;
  /** The launching user, whose shard holds the job and the sealed key (`accountPrefix`). */
  accountId: string;
  /** What Bull Board shows of the launch's job (see `describeJob`). */
  about: JobDescription;
}

/**
 * Hands a stored launch (a listing's or a prompt's) to the chain worker and waits up to `waitMs`
 * (`LAUNCH_WAIT_MS`) for its run to end: the finished run, or null when it is still going. The key
 * waits for the worker only sealed, in Redis beside the job (see `launch-keys`), and is never stored. A launch that
 * could not be queued is marked failed — its listing failed, its prompt removed — and the queue's
 * error (503) is thrown.
 */
export async function runLaunchJob(
  deps: ApiDeps,
  launch: StoredLaunch,
  keypair: Keypair,
  waitMs: number,
): Promise<Run | null> {
  const job = { ...launch.about, runId: launch.runId, launchId: launch.launchId };
  let queued = false;
  const prefix = accountPrefix(launch.accountId);
  const enqueueJob = async () => {
    await depositLaunchKey(deps.redis, launch.runId, bs58.encode(keypair.secretKey), prefix);
    try {
      await enqueue(deps.queues.of(launch.accountId), "token-launch", job, launch.runId);
    } catch (err) {
      await destroyLaunchKey(deps.redis, launch.runId, prefix).catch(() => undefined);
      throw err;
    }
    queued = true;
  };
  try {
    return await enqueueAndAwait(deps, launch.runId, enqueueJob, waitMs);
  } catch (err) {
    // Only a launch that never reached the queue is settled here; a queued one is the worker's.
    if (!queued)
      await markLaunchFailed(deps.ds, launch.launchId, "The launch could not be queued").catch(() => undefined);
    throw err;
  }
}
