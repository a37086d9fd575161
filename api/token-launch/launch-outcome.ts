import type { Run, RunError } from "../../shared/db/entities/run.entity";
import { config } from "../../shared/config";
import { PlatformError } from "../platform-error";

/** The token launch's success body. */
export interface TokenLaunchResponse {
  success: true;
  id: string;
  listing_url: string;
  tokenized: true;
  token_address: string | null;
  pool_address: string | null;
}

/** Where a launched token is. */
export interface LaunchedToken {
  token_address: string;
  pool_address: string | null;
}

/** What the launch was for, named in the answer when the wait ends before the launch does. */
export interface LaunchSubject {
  id: string;
  listing_url: string;
  /** What happens to it after the wait, e.g. "the listing appears once it has launched". */
  afterwards: string;
}

function listingUrl(id: string): string {
  return `${config.http.platformUrl}/agent/${id}`;
}

/**
 * The token of a launch run that ended (or did not, within the wait). The network refusing or
 * failing the launch is the platform's 400 `Tokenization failed`; a launch the service could not carry
 * out (the network unreachable, the run abandoned) is a 500 with the same category; a launch still
 * being confirmed when the wait ends is a 500 that names what it was for, to look at later.
 */
export function launchedToken(run: Run | null, subject: LaunchSubject): LaunchedToken {
  if (!run) {
    throw new PlatformError(
      500,
      "Tokenization failed",
      `The launch is still being confirmed on the network; ${subject.afterwards}`,
      { id: subject.id, listing_url: subject.listing_url },
      "LAUNCH_PENDING",
    );
  }
  const output = run.kind === "token_launch" || run.kind === "prompt_tokenize" ? run.output : null;
  if (run.status === "succeeded" && output) {
    return { token_address: output.token_address, pool_address: output.pool_address };
  }
  const error: Partial<RunError> = run.error ?? {};
  if (error.code === "TOKENIZATION_FAILED")
    throw new PlatformError(
      400,
      "Tokenization failed",
      error.message ?? "The token could not be created",
      {},
      "TOKENIZATION_FAILED",
    );
  throw new PlatformError(
    500,
    "Tokenization failed",
    error.message ?? "The token launch could not be completed",
    {},
    error.code ?? "TOKENIZATION_UNAVAILABLE",
  );
}

/** The token launch's answer for its launch run. */
export function launchResponse(listingId: string, run: Run | null): TokenLaunchResponse {
  const url = listingUrl(listingId);
  const token = launchedToken(run, {
    id: listingId,
    listing_url: url,
    afterwards: "the listing appears once it has launched",
  });
  return { success: true, id: listingId, listing_url: url, tokenized: true, ...token };
}
