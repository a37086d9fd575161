import type { Run } from "../../../shared/db/entities/run.entity";
import { config } from "../../../shared/config";
import { PlatformError } from "../../platform/platform-error";

/** E6's success body. */
export interface TokenLaunchResponse {
  success: true;
  id: string;
  listing_url: string;
  tokenized: true;
  token_address: string | null;
  pool_address: string | null;
}

export function listingUrl(id: string): string {
  return `${config.http.platformUrl}/agent/${id}`;
}

/**
 * The response for a launch run that ended (or did not, within the wait). The network refusing
 * or failing the launch is the spec's 400 `Tokenization failed`; a launch the service could not
 * carry out (the network unreachable, the run abandoned) is a 500 with the same category; a launch
 * still being confirmed when the wait ends is a 500 that names the listing to look at later.
 */
export function launchResponse(listingId: string, run: Run | null): TokenLaunchResponse {
  if (!run) {
    throw new PlatformError(500, "Tokenization failed", "The launch is still being confirmed on the network; the listing appears once it has launched", { id: listingId, listing_url: listingUrl(listingId) }, "LAUNCH_PENDING");
  }
  if (run.status === "succeeded") {
    const output = run.output as { token_address: string; pool_address: string | null };
    return { success: true, id: listingId, listing_url: listingUrl(listingId), tokenized: true, token_address: output.token_address, pool_address: output.pool_address };
  }
  const error = (run.error ?? {}) as { message?: string; code?: string };
  if (error.code === "TOKENIZATION_FAILED") throw new PlatformError(400, "Tokenization failed", error.message ?? "The token could not be created", {}, "TOKENIZATION_FAILED");
  throw new PlatformError(500, "Tokenization failed", error.message ?? "The token launch could not be completed", {}, error.code ?? "TOKENIZATION_UNAVAILABLE");
}
