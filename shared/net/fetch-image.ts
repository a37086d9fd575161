import { config } from "../config";
import { decodeImage, type DecodedImage } from "../storage";
import { boundedBytes } from "./bounded-body";
import { egressFetch, EgressRefusedError } from "./egress";

/** Why a URL gave no image: the server's answer, its size, or no answer in time. */
export type ImageMiss = { why: "status"; status: number } | { why: "too_large" } | { why: "unreachable" | "timeout" };

/**
 * A client-given image URL fetched through the egress policy (every connection and redirect hop
 * checked on the address actually connected to), within `timeoutMs` and `IMAGE_MAX_BYTES`, and
 * typed by its bytes (PNG, JPEG, WebP or GIF; never SVG or HTML). Throws the policy's
 * `EgressRefusedError`, `decodeImage`'s `ImageError` for bytes that are no such image, and the
 * abort of `signal`; any other failure is an {@link ImageMiss}. Listing images and run images both
 * come through here.
 */
export async function fetchImage(
  url: string,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
): Promise<{ image: DecodedImage } | { miss: ImageMiss }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let bytes: Buffer | null;
  try {
    const res = await egressFetch(url, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: { accept: "image/png, image/jpeg, image/webp, image/gif" },
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { miss: { why: "status", status: res.status } };
    }
    bytes = await boundedBytes(res, config.platform.imageMaxBytes);
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof EgressRefusedError) throw err;
    return { miss: { why: timeout.aborted ? "timeout" : "unreachable" } };
  }
  return bytes ? { image: decodeImage(bytes) } : { miss: { why: "too_large" } };
}
