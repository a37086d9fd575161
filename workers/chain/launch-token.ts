import { SendTransactionError, type Connection, type Keypair } from "@solana/web3.js";
import type { DataSource } from "typeorm";
import { findLaunch, markLaunchSent, type TokenLaunch } from "../../shared/db/token-launch-store";
import { markLaunchConfirmed } from "../../shared/db/token-launch-outcome-store";
import type { Logger } from "../../shared/logger";
import { awaitLanding, type Landing } from "./confirmation";
import { isTransientRpcError, LaunchFailedError, refusalText } from "./launch-errors";
import type { TokenLauncher } from "./launchers/launcher";
import { describeSigned, type SignedTransactionInfo } from "./signed-transaction";

/** Builds before giving up when every built launch expires unsent (a cluster dropping transactions). */
const MAX_BUILDS = 3;

export interface LaunchDeps {
  ds: DataSource;
  connection: Connection;
  launcher: TokenLauncher;
  logger: Logger;
  signal?: AbortSignal;
  /** Confirmation re-check interval (tests shorten it). */
  pollMs?: number;
}

export interface LaunchResult {
  mintAddress: string;
  poolAddress: string | null;
  signature: string;
}

function resultOf(launch: TokenLaunch): LaunchResult {
  return { mintAddress: launch.mint_address!, poolAddress: launch.pool_address, signature: launch.signature! };
}

function failureText(landing: Extract<Landing, { kind: "failed" }>): string {
  return `The launch transaction ${landing.signature} failed on the network: ${JSON.stringify(landing.err)}`;
}

/**
 * Runs a stored launch to its end and returns the token's addresses. Never sends a launch twice:
 * the signed transactions' signatures are stored (compare-and-set) before the first send, and a
 * launch found `sent` — a retried job, or a job delivered to two workers — is confirmed from the
 * stored signatures. New transactions are built only when every stored blockhash has expired with
 * nothing landed: the old ones can no longer land, so the new ones cannot add a second token.
 * Throws LaunchFailedError for outcomes a retry cannot change, and anything else (the RPC
 * unreachable, the database down) for the job to be retried.
 */
export async function launchToken(deps: LaunchDeps, launchId: string, creator: () => Keypair): Promise<LaunchResult> {
  for (let build = 0; ;) {
    const launch = await findLaunch(deps.ds, launchId);
    if (!launch) throw new LaunchFailedError("The launch record is missing");
    if (launch.status === "confirmed") return resultOf(launch);
    if (launch.status === "failed") throw new LaunchFailedError(launch.error ?? "The launch failed");
    if (launch.status === "sent" && launch.signatures.length) {
      const landing = await awaitLanding(deps.connection, launch.signatures, launch.blockhashes, deps);
      if (landing.kind === "landed") return confirm(deps, launch);
      settleUnlanded(landing);
      deps.logger.warn(
        { launchId, signatures: launch.signatures },
        "launch transactions expired without landing; building new ones",
      );
    }
    if (++build > MAX_BUILDS)
      throw new LaunchFailedError("The network did not take the launch transactions before they expired");

    const signed = await prepare(deps, launch, creator());
    const signatures = signed.transactions.map((t) => t.signature);
    const stored = await markLaunchSent(deps.ds, launchId, launch.signatures, {
      signatures,
      blockhashes: [...new Set(signed.transactions.map((t) => t.blockhash))],
      mintAddress: signed.mintAddress,
      poolAddress: signed.poolAddress,
    });
    if (!stored) continue; // another worker stored its launch first: confirm that one instead
    deps.logger.info({ launchId, signatures, mint: signed.mintAddress }, "launch signed and stored; sending");
    const landing = await sendInOrder(deps, signed.transactions);
    if (landing.kind === "landed") return confirm(deps, (await findLaunch(deps.ds, launchId))!);
    settleUnlanded(landing);
    // Expired unsent: the next turn re-reads the row, sees every blockhash expired, and builds anew.
  }
}

/** Throws for a launch that failed or partly landed; returns for one that expired with nothing landed. */
function settleUnlanded(landing: Exclude<Landing, { kind: "landed" }>): void {
  if (landing.kind === "failed") throw new LaunchFailedError(failureText(landing));
  if (landing.landed.length)
    throw new LaunchFailedError("Part of the launch landed and the rest expired; it was not sent again");
}

async function confirm(deps: LaunchDeps, launch: TokenLaunch): Promise<LaunchResult> {
  await markLaunchConfirmed(deps.ds, launch);
  return resultOf(launch);
}

async function prepare(deps: LaunchDeps, launch: TokenLaunch, creator: Keypair) {
  try {
    const prepared = await deps.launcher.prepare(deps.connection, {
      name: launch.name,
      ticker: launch.ticker,
      description: launch.description,
      imageUrl: launch.image_url,
      quoteMint: launch.quote_mint,
      feeSelection: launch.fee_selection,
      creator,
    });
    return {
      transactions: prepared.transactions.map(describeSigned),
      mintAddress: prepared.mintAddress.toBase58(),
      poolAddress: prepared.poolAddress?.toBase58() ?? null,
    };
  } catch (err) {
    if (isTransientRpcError(err)) throw err;
    throw new LaunchFailedError(
      `The launch transactions could not be built: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * Sends the transactions one after another, each once it can land (a later one may depend on an
 * earlier one's accounts), and waits for each. Preflight is on: a transaction the network would
 * refuse is refused before it is forwarded, so nothing of it lands.
 */
async function sendInOrder(deps: LaunchDeps, transactions: SignedTransactionInfo[]): Promise<Landing> {
  for (const [index, tx] of transactions.entries()) {
    try {
      await deps.connection.sendRawTransaction(tx.wire, { skipPreflight: false, preflightCommitment: "confirmed" });
    } catch (err) {
      if (!(err instanceof SendTransactionError)) throw err; // unreachable RPC: the retry confirms or rebuilds
      // Built on a blockhash that expired before the send: nothing of it can land, build anew.
      if (/Blockhash not found/i.test(err.message))
        return { kind: "expired", landed: transactions.slice(0, index).map((t) => t.signature) };
      const where = transactions.length > 1 ? ` (transaction ${index + 1} of ${transactions.length})` : "";
      throw new LaunchFailedError(`The network refused the launch${where}: ${refusalText(err)}`);
    }
    const landing = await awaitLanding(deps.connection, [tx.signature], [tx.blockhash], deps);
    if (landing.kind !== "landed") {
      return landing.kind === "expired"
        ? { kind: "expired", landed: transactions.slice(0, index).map((t) => t.signature) }
        : landing;
    }
  }
  return { kind: "landed" };
}
