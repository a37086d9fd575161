import { describeJob } from "../../shared/queues/job-description";
import { newRunId } from "../../shared/db/run-id";
import { config } from "../../shared/config";
import { insertListingLaunch } from "../../shared/db/token-launch-store";
import type { ApiDeps } from "../deps";
import type { PlatformCaller } from "../auth/platform-caller";
import type { TokenLaunchBody } from "../schemas/token-launch-request.schema";
import { consumeDailyQuota } from "../limits/daily-limits";
import type { PlatformServices } from "../marketplace/platform-services";
import { checkLaunchImage, plannedLaunchImageUrl, storeLaunchImage } from "./launch-image";
import { runLaunchJob } from "./launch-job";
import { assertFunded, assertMetadataFits } from "./launch-checks";
import { launchResponse, type TokenLaunchResponse } from "./launch-outcome";

/** What a listing made by a token launch starts with, until its owner publishes the agent itself. */
const PLACEHOLDER_CODE =
  "# This agent was listed together with its token launch; its code has not been published yet.\n";
const DEFAULT_METADATA = { source: "token_launch", language: "python", requirements: [], use_cases: [], tags: [] };

/**
 * `POST /api/token/launch`, on a validated body (fields and key): checks what else can be checked here (the image, the
 * launcher's metadata limits, the wallet's balance), then stores the listing (`launching`), the
 * launch and its run — counting a paid agent in the same transaction — and has the chain worker
 * launch the token, waiting for the outcome. The key travels to the worker only sealed inside the
 * job; it is never stored. A launch that fails leaves its listing `failed`, which is never shown.
 */
export async function launchListingToken(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  body: TokenLaunchBody,
  file: Buffer | null,
): Promise<TokenLaunchResponse> {
  const keypair = body.private_key.keypair();
  const image = checkLaunchImage(body.image, file);
  const plannedUri = plannedLaunchImageUrl(image, services.storage) ?? "";
  assertMetadataFits(
    services.tokenLauncher,
    { name: body.name, symbol: body.ticker, uri: plannedUri },
    { name: "name", symbol: "ticker", uri: "image" },
  );
  await assertFunded(services.chain, keypair.publicKey);
  const imageUrl = await storeLaunchImage(image, services.storage);

  const runId = newRunId();
  const creatorWallet = keypair.publicKey.toBase58();
  const { listingId, launchId } = await insertListingLaunch(
    deps.ds,
    {
      runId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId,
      listing: {
        name: body.name,
        description: body.description,
        ticker: body.ticker,
        imageUrl,
        code: PLACEHOLDER_CODE,
        metadata: DEFAULT_METADATA,
      },
      launch: {
        network: config.solana.network,
        launcher: config.solana.launcher,
        creatorWallet,
        quoteMint: body.quote_mint,
        feeSelection: body.fee_selection,
      },
      request: {
        name: body.name,
        ticker: body.ticker,
        image_url: imageUrl,
        fee_selection: body.fee_selection,
        quote_mint: body.quote_mint,
        creator_wallet: creatorWallet,
      },
    },
    async (tx) => {
      await consumeDailyQuota(tx, caller.userId, "paidAgents", services.dailyLimits);
    },
  );
  const about = describeJob({ kind: "token_launch", request: {}, owner: caller });
  return launchResponse(
    listingId,
    await runLaunchJob(deps, { runId, launchId, about, accountId: caller.userId }, keypair, services.launchWaitMs),
  );
}
