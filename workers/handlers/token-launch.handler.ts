import { UnrecoverableError } from "bullmq";
import type { Connection } from "@solana/web3.js";
import { createChainConnection } from "../../shared/chain/connection";
import { parsePrivateKey } from "../../shared/chain/private-key";
import { config } from "../../shared/config";
import type { TokenLaunchOutput } from "../../shared/contracts/token-launch";
import { completeRun, failRun } from "../../shared/db/runs/run-results";
import { claimRun } from "../../shared/db/runs/run-leases";
import { findLaunch } from "../../shared/db/token-launch-store";
import { markLaunchFailed } from "../../shared/db/token-launch-outcome-store";
import { fetchLaunchKey, openLaunchKey } from "../../shared/secrets/launch-keys";
import { accountPrefix } from "../../shared/queues/shards";
import { LaunchFailedError } from "../chain/launch-errors";
import { launchToken } from "../chain/launch-token";
import { launcherFor } from "../chain/launchers";
import type { Handler } from "./handler";

let sharedConnection: Connection | null = null;
/** One connection (HTTP keep-alive, one websocket for all confirmations) per worker process. */
function connection(): Connection {
  return (sharedConnection ??= createChainConnection());
}

/**
 * A listing's token launch (and a new prompt's tokenization): launches the token of a stored launch with the creator's key,
 * which waits sealed in Redis beside the job and is opened only here, only when transactions must be signed.
 * A failure the network or the launcher decided fails the run with TOKENIZATION_FAILED; trouble
 * reaching the RPC or the database is rethrown so the job is retried (and the retry confirms what
 * was sent rather than sending again). The key is destroyed when the job ends (see the worker pool).
 */
export const handleTokenLaunch: Handler<"token-launch"> = async ({ runId, launchId }, ctx) => {
  const run = await claimRun(ctx.ds, runId);
  if (!run) return { runId }; // finished already: a duplicate delivery
  const sealedKey = await fetchLaunchKey(ctx.redis, runId, accountPrefix(run.user_id));
  const creator = () => {
    if (!sealedKey) throw new LaunchFailedError("The signing key is no longer available for this launch");
    try {
      return parsePrivateKey(openLaunchKey(sealedKey, runId));
    } catch {
      throw new LaunchFailedError("The signing key could not be opened"); // never the key's text
    }
  };
  try {
    const deps = {
      ds: ctx.ds,
      connection: connection(),
      launcher: launcherFor(config.solana.launcher),
      logger: ctx.logger,
      signal: ctx.signal,
    };
    const result = await launchToken(deps, launchId, creator);
    const launch = await findLaunch(ctx.ds, launchId);
    const output: TokenLaunchOutput = {
      listing_id: launch?.listing_id ?? null,
      prompt_id: launch?.prompt_id ?? null,
      token_address: result.mintAddress,
      pool_address: result.poolAddress,
      signature: result.signature,
    };
    ctx.announce(await completeRun(ctx.ds, runId, output, null, null));
    ctx.logger.info({ runId, launchId, mint: result.mintAddress, signature: result.signature }, "token launched");
  } catch (err) {
    const permanent = err instanceof LaunchFailedError;
    // Retried (a shutdown hands the job back whatever the attempt): the stored signatures make that safe.
    if (!permanent && (!ctx.finalAttempt || ctx.signal?.aborted)) throw err;
    const message = permanent
      ? err.message
      : "The launch could not be completed: the network or the database stayed unreachable";
    await markLaunchFailed(ctx.ds, launchId, message);
    ctx.announce(
      await failRun(
        ctx.ds,
        runId,
        { message, code: permanent ? "TOKENIZATION_FAILED" : "TOKENIZATION_UNAVAILABLE" },
        { owner: null }, // claimed without a lease
      ),
    );
    ctx.logger.warn({ runId, launchId, err: message }, "token launch failed");
    if (!permanent) throw new UnrecoverableError(message);
  }
  return { runId };
};
