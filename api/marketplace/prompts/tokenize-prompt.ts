import { newRunId } from "../../../shared/db/run-id";
import { config } from "../../../shared/config";
import type { QuotaColumn } from "../../../shared/db/entities/daily-usage.entity";
import type { Queryable } from "../../../shared/db/sql";
import { insertPromptLaunch, isLiveLaunchViolation } from "../../../shared/db/token-launch-store";
import type { CreatorKey } from "../../../shared/chain/creator-key";
import type { ApiDeps } from "../../deps";
import type { PlatformCaller } from "../../auth/platform-caller";
import { PlatformError } from "../../platform-error";
import type { PlatformServices } from "../platform-services";
import { describeJob } from "../../../shared/queues/job-description";
import { runLaunchJob, type StoredLaunch } from "../../token-launch/launch-job";
import { assertFunded, assertMetadataFits } from "../../token-launch/launch-checks";
import { launchedToken } from "../../token-launch/launch-outcome";
import { promptListingUrl } from "./prompt-record";

/**
 * A prompt's token (created with `tokenized_on`, or an edit turning it on). Launched by the same chain
 * worker as `POST /api/token/launch`, with the defaults prompt creation has no fields for: quoted in SOL, `market` fee (1%).
 */
export interface PromptToken {
  name: string;
  /** Uppercased and checked (1–10 letters and digits). */
  ticker: string;
  /** The image the token's metadata points to, or null for none. */
  imageUrl: string | null;
  /** The request field the image came from, named when it is too long for the launcher. */
  imageField: string;
  /** Checked against `creator_wallet`; pays for and signs the launch. Never stored. */
  creator: CreatorKey;
}

/** Prompt creation's token fields of the success body. */
export interface PromptTokenOutcome {
  tokenized: boolean;
  token_address: string | null;
  pool_address: string | null;
}

export const NOT_TOKENIZED: PromptTokenOutcome = { tokenized: false, token_address: null, pool_address: null };

/**
 * What can be checked before anything is stored: the launcher's metadata limits, then the
 * wallet's balance (400 `Insufficient SOL balance` with `required_sol` and `current_balance_sol`).
 */
export async function checkPromptToken(services: PlatformServices, token: PromptToken): Promise<void> {
  assertMetadataFits(
    services.tokenLauncher,
    { name: token.name, symbol: token.ticker, uri: token.imageUrl ?? "" },
    { name: "name", symbol: "ticker", uri: token.imageField },
  );
  await assertFunded(services.chain, token.creator.keypair().publicKey);
}

/**
 * Stores the launch of a prompt's token and its queued run (`prompt_tokenize`) inside the caller's
 * transaction. `quota` is the daily count the prompt took when it was made for this launch (prompt creation),
 * given back if the launch fails; an edit passes null. A prompt whose launch is under way or done
 * cannot get a second one: 409.
 */
export async function storePromptLaunch(
  tx: Queryable,
  caller: PlatformCaller,
  promptId: string,
  token: PromptToken,
  quota: { column: QuotaColumn; day: string } | null,
): Promise<StoredLaunch> {
  const runId = newRunId();
  const creatorWallet = token.creator.publicKey;
  try {
    const launchId = await insertPromptLaunch(tx, {
      runId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId,
      promptId,
      token: { name: token.name, ticker: token.ticker, imageUrl: token.imageUrl },
      launch: {
        network: config.solana.network,
        launcher: config.solana.launcher,
        creatorWallet,
        quoteMint: "SOL",
        feeSelection: "market",
      },
      quota,
      request: { name: token.name, ticker: token.ticker, image_url: token.imageUrl, creator_wallet: creatorWallet },
    });
    const about = describeJob({ kind: "prompt_tokenize", request: {}, owner: caller });
    return { runId, launchId, about, accountId: caller.userId };
  } catch (err) {
    if (isLiveLaunchViolation(err))
      throw new PlatformError(
        409,
        "Conflict",
        "This prompt's token is already launched or being launched",
        {},
        "PROMPT_LAUNCH_EXISTS",
      );
    throw err;
  }
}

/**
 * The one place a stored prompt's token is launched: through the chain worker (the key sealed
 * inside the job), waiting for the outcome. The worker records the token on the prompt; a launch
 * that fails is settled by the worker too (see `markLaunchFailed`) and answered here as 400
 * `Tokenization failed` (500 when the launch could not be carried out, or is still being confirmed
 * when the wait ends: `afterwards` says what then becomes of the prompt).
 */
export async function launchPromptToken(
  deps: ApiDeps,
  services: PlatformServices,
  promptId: string,
  launch: StoredLaunch,
  creator: CreatorKey,
  afterwards: string,
): Promise<PromptTokenOutcome> {
  const run = await runLaunchJob(deps, launch, creator.keypair(), services.launchWaitMs);
  const token = launchedToken(run, { id: promptId, listing_url: promptListingUrl(promptId), afterwards });
  return { tokenized: true, ...token };
}
