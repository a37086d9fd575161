import type { PlatformCaller } from "../auth/platform-caller";
import type { ApiDeps } from "../deps";
import { PlatformError } from "../platform-error";
import type { PlatformServices } from "../marketplace/platform-services";
import type { TokenLaunchBody } from "../schemas/token-launch-request.schema";
import { launchListingToken } from "./request-launch";
import type { TokenLaunchResponse } from "./launch-outcome";

/** One launch of a batch that succeeded: the single launch's answer and the item's place. */
export type BatchLaunchSuccess = TokenLaunchResponse & { index: number };

/** One launch of a batch that failed: the item's place and the error the single launch would have answered. */
export interface BatchLaunchFailure {
  success: false;
  index: number;
  error: PlatformError;
}

/** Every item's outcome, in order. */
export type BatchLaunchOutcome = BatchLaunchSuccess | BatchLaunchFailure;

/** One item, launched as `POST /api/token/launch` launches it; its platform error becomes its failure. */
async function launchItem(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  item: TokenLaunchBody | PlatformError,
  index: number,
): Promise<BatchLaunchOutcome> {
  try {
    if (item instanceof PlatformError) throw item;
    return { ...(await launchListingToken(deps, services, caller, item, null)), index };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return { success: false, index, error: err };
  }
}

/**
 * `POST /api/token/launch/batch`: every item launched as the single launch launches one (checked, counted as a paid
 * agent, a `chain` job with its key sealed), all at once; an item that fails (refused by validation, which the
 * caller did, an unfunded wallet, the daily limit, the network refusing it) fails alone, with the error the single
 * launch would give.
 */
export async function launchBatch(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  items: (TokenLaunchBody | PlatformError)[],
): Promise<BatchLaunchOutcome[]> {
  return Promise.all(items.map((item, index) => launchItem(deps, services, caller, item, index)));
}
