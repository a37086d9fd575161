import { randomUUID } from "node:crypto";
import bs58 from "bs58";
import type { Connection, Keypair } from "@solana/web3.js";
import type { EntityManager } from "typeorm";
import { balanceSol } from "../../../shared/chain/connection";
import { InvalidKeyError, parsePrivateKey } from "../../../shared/chain/private-key";
import { config } from "../../../shared/config";
import { insertListingLaunch, markLaunchFailed } from "../../../shared/db/token-launch-store";
import { enqueue } from "../../../shared/queues/queues";
import { sealSecret } from "../../../shared/secrets/sealed";
import type { ObjectStorage } from "../../../shared/storage";
import type { ApiDeps } from "../../deps";
import type { PlatformCaller } from "../../middleware/platform-auth";
import { PlatformError, platformValidationError, type FieldProblem } from "../../platform/platform-error";
import { enqueueAndAwait } from "../run-service";
import { checkLaunchImage, storeLaunchImage } from "./launch-image";
import { launchResponse, type TokenLaunchResponse } from "./launch-outcome";
import { validateTokenLaunch } from "../../routes/platform/token-launch/token-launch.schema";

/** Counts one paid agent for the user today inside the create transaction, or throws the 429. */
export type CountPaidAgent = (manager: EntityManager, userId: string) => Promise<unknown>;

export interface TokenLaunchDeps {
  api: ApiDeps;
  storage: ObjectStorage;
  connection: Connection;
  countPaidAgent: CountPaidAgent;
}

/** What a listing made by a token launch starts with, until its owner publishes the agent itself. */
const PLACEHOLDER_CODE = "# This agent was listed together with its token launch; its code has not been published yet.\n";
const DEFAULT_METADATA = { source: "token_launch", language: "python", requirements: [], use_cases: [], tags: [] };

/** Parses the key, or adds its problem to the list (the message never quotes the key). */
function keyOf(value: unknown, problems: FieldProblem[]): Keypair | null {
  try {
    return parsePrivateKey(value);
  } catch (err) {
    if (!(err instanceof InvalidKeyError)) throw err;
    problems.push({ path: "private_key", message: err.message });
    return null;
  }
}

async function assertFunded(connection: Connection, keypair: Keypair): Promise<void> {
  let balance: number;
  try {
    balance = await balanceSol(connection, keypair.publicKey);
  } catch {
    throw new PlatformError(500, "Internal server error", "The Solana network could not be reached to check the wallet's balance", {}, "CHAIN_UNAVAILABLE");
  }
  const required = config.solana.minBalanceSol;
  if (balance < required) {
    throw new PlatformError(
      400,
      "Insufficient SOL balance",
      `The wallet ${keypair.publicKey.toBase58()} holds ${balance} SOL; a token launch needs at least ${required} SOL`,
      { required_sol: required, current_balance_sol: balance },
      "INSUFFICIENT_BALANCE",
    );
  }
}

/**
 * E6: checks everything that can be checked here (fields, key, image, the wallet's balance), then
 * stores the listing (`launching`), the launch and its run — counting a paid agent in the same
 * transaction — and has the chain worker launch the token, waiting for the outcome. The key
 * travels to the worker only sealed inside the job; it is never stored. A launch that fails leaves
 * its listing `failed`, which is never shown.
 */
export async function launchListingToken(deps: TokenLaunchDeps, caller: PlatformCaller, input: unknown, file: Buffer | null): Promise<TokenLaunchResponse> {
  const { value: body, problems } = validateTokenLaunch(input);
  const keypair = body.private_key === undefined ? null : keyOf(body.private_key, problems);
  if (problems.length || !keypair) throw platformValidationError(problems);
  const image = checkLaunchImage(body.image, file);
  await assertFunded(deps.connection, keypair);
  const imageUrl = await storeLaunchImage(image, deps.storage);

  const runId = randomUUID();
  const creatorWallet = keypair.publicKey.toBase58();
  const { listingId, launchId } = await insertListingLaunch(
    deps.api.ds,
    {
      runId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId,
      listing: { name: body.name, description: body.description, ticker: body.ticker, imageUrl, code: PLACEHOLDER_CODE, metadata: DEFAULT_METADATA },
      launch: { network: config.solana.network, launcher: config.solana.launcher, creatorWallet, quoteMint: body.quote_mint, feeSelection: body.fee_selection },
      request: { name: body.name, ticker: body.ticker, image_url: imageUrl, fee_selection: body.fee_selection, quote_mint: body.quote_mint, creator_wallet: creatorWallet },
    },
    async (manager) => {
      await deps.countPaidAgent(manager, caller.userId);
    },
  );

  const sealedKey = sealSecret(bs58.encode(keypair.secretKey));
  let run;
  try {
    run = await enqueueAndAwait(deps.api, runId, () => enqueue(deps.api.queues, "token-launch", { runId, launchId, sealedKey }, runId), config.solana.launchWaitMs);
  } catch (err) {
    await markLaunchFailed(deps.api.ds, { id: launchId, listing_id: listingId }, "The launch could not be queued").catch(() => undefined);
    throw err;
  }
  return launchResponse(listingId, run);
}
