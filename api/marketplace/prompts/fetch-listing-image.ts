import { logger } from "../../../shared/logger";
import { egressPolicy, EgressRefusedError } from "../../../shared/net/egress";
import { fetchImage } from "../../../shared/net/fetch-image";
import type { ObjectStorage } from "../../../shared/storage";
import { PlatformError } from "../../platform-error";

/** Where a listing's image ended up: the stored copy's URL and key, or none. */
interface FetchedImage {
  image_url: string | null;
  file_path: string | null;
}

/** How long the one fetch of a seller's image may take, all of it: the submit waits for it. */
const FETCH_TIMEOUT_MS = 5_000;

/**
 * A listing's `image_url`, fetched once, now, through the egress policy, and kept in the
 * platform's own storage, so pages show the platform's copy and no viewer's browser ever asks the
 * seller's server. A URL the policy refuses is the request's 400 `EGRESS_REFUSED` (nothing stored);
 * any other failure (unreachable, slow, not a 2xx, too large, not a PNG, JPEG, WebP or GIF by its
 * bytes: never SVG) leaves the listing without an image rather than failing it.
 */
export async function fetchListingImage(storage: ObjectStorage, url: string, field: string): Promise<FetchedImage> {
  try {
    await egressPolicy.check(url);
  } catch (err) {
    if (err instanceof EgressRefusedError) throw refused(field, err);
    throw err;
  }
  try {
    const fetched = await fetchImage(url, { timeoutMs: FETCH_TIMEOUT_MS });
    if ("miss" in fetched) return noImage(fetched.miss.why);
    const stored = await storage.put(fetched.image.data, fetched.image.contentType);
    return { image_url: stored.url, file_path: stored.key };
  } catch (err) {
    // A name that resolved to a refused address only at connect time is refused like the check.
    if (err instanceof EgressRefusedError) throw refused(field, err);
    return noImage(err instanceof Error ? err.name : "error");
  }
}

function refused(field: string, err: EgressRefusedError): PlatformError {
  return new PlatformError(400, "Validation error", `${field}: ${err.message}`, {}, "EGRESS_REFUSED");
}

function noImage(why: string): FetchedImage {
  // The URL is the seller's and may carry anything: only why is logged.
  logger.info({ why }, "listing image not fetched; the listing has no image");
  return { image_url: null, file_path: null };
}
