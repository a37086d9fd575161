import { config } from "../../shared/config";
import { AppError } from "../../shared/errors";
import { EgressRefusedError } from "../../shared/net/egress";
import { fetchImage } from "../../shared/net/fetch-image";
import type { UsageCounter } from "./agent-context";
import { imageUrl } from "./messages";

/** How long fetching one image may take, all of it (connections, redirects, body). */
const IMAGE_FETCH_TIMEOUT_MS = 10_000;

/**
 * Each run's images as sent to the model, by the image the request gave. Keyed by the run's usage
 * counter, the one object every agent context of a run shares (handoffs and swarm turns included),
 * so a swarm whose agents all see one image fetches it once.
 */
const fetchedByRun = new WeakMap<UsageCounter, Map<string, Promise<string>>>();

/**
 * `image` as the model receives it: always a `data:` URL or the client's own data. An http(s) URL
 * is fetched here, through the egress policy (every connection and redirect hop checked on the
 * address actually connected to), bounded in time and size and typed by its bytes, because a model
 * server or gateway given the URL would fetch it itself, inside the operator's network, following
 * redirects and re-resolving names past any check. Fails the run: `EGRESS_REFUSED` when the policy
 * refuses a hop, `IMAGE_UNAVAILABLE` when nothing usable came back, `IMAGE_TOO_LARGE` or
 * `IMAGE_UNSUPPORTED_TYPE` for what did.
 */
export function imageForModel(usage: UsageCounter, image: string, signal: AbortSignal): Promise<string> {
  if (!/^https?:/i.test(image.trim())) return Promise.resolve(imageUrl(image));
  let fetched = fetchedByRun.get(usage);
  if (!fetched) fetchedByRun.set(usage, (fetched = new Map()));
  let data = fetched.get(image);
  if (!data) {
    data = fetchForModel(image.trim(), signal);
    fetched.set(image, data);
  }
  return data;
}

async function fetchForModel(url: string, signal: AbortSignal): Promise<string> {
  let fetched;
  try {
    // fetchImage types the bytes (PNG, JPEG, WebP or GIF; never SVG or HTML): its ImageError fails the run.
    fetched = await fetchImage(url, { timeoutMs: IMAGE_FETCH_TIMEOUT_MS, signal });
  } catch (err) {
    if (err instanceof EgressRefusedError)
      throw new AppError(400, "EGRESS_REFUSED", `An image URL could not be fetched: ${err.message}`);
    throw err; // the run's own stop (cancel, deadline, shutdown) is the run's error, not the image's
  }
  if ("image" in fetched) return `data:${fetched.image.contentType};base64,${fetched.image.data.toString("base64")}`;
  const { miss } = fetched;
  if (miss.why === "too_large")
    throw new AppError(
      400,
      "IMAGE_TOO_LARGE",
      `An image URL's image is larger than the ${config.platform.imageMaxBytes}-byte limit`,
    );
  if (miss.why === "status") throw unavailable(`the server answered HTTP ${miss.status}`);
  throw unavailable(
    miss.why === "timeout" ? `it took longer than ${IMAGE_FETCH_TIMEOUT_MS / 1000} s` : "it could not be reached",
  );
}

/** Why an image URL gave nothing usable, without anything the server sent. */
function unavailable(why: string): AppError {
  return new AppError(400, "IMAGE_UNAVAILABLE", `An image URL could not be fetched: ${why}`);
}
