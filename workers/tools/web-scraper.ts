import { config, type Config } from "../../shared/config";
import { egressFetch, EgressRefusedError } from "../../shared/net/egress";
import { htmlToText } from "./html-text";

type ScraperSettings = Config["builtinTools"]["scraper"];

/** Why a page could not be read; the model is told this text instead of the page. */
export class ScrapeRefusedError extends Error {
  override name = "ScrapeRefusedError";
}

/** Reads at most `maxBytes` of a body; a bigger one is refused rather than cut mid-document. */
async function boundedBody(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new ScrapeRefusedError(`the page is larger than ${maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ScrapeRefusedError(`the page is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function pageUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ScrapeRefusedError("not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ScrapeRefusedError("only http(s) pages can be read");
  if (url.username || url.password) throw new ScrapeRefusedError("URLs with credentials are not fetched");
  return url;
}

/**
 * The readable text of the page at `raw`, a URL the model chose (so a client's data). It is
 * fetched under the egress policy: public addresses only unless `EGRESS_ALLOW` says otherwise,
 * every redirect hop checked again; within `SCRAPER_TIMEOUT_MS` and `SCRAPER_MAX_BYTES`, and only
 * text (HTML becomes plain text).
 */
export async function scrapePage(
  raw: string,
  signal?: AbortSignal,
  settings: ScraperSettings = config.builtinTools.scraper,
): Promise<string> {
  const url = pageUrl(raw);
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  let response: Response;
  let body: Buffer;
  try {
    response = await egressFetch(url, {
      headers: { accept: "text/html, text/plain;q=0.9, */*;q=0.1", "user-agent": "Apiary web_scraper" },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ScrapeRefusedError(`the page answered ${response.status}`);
    }
    body = await boundedBody(response, settings.maxBytes);
  } catch (err) {
    if (signal?.aborted || err instanceof ScrapeRefusedError) throw err;
    if (err instanceof EgressRefusedError) throw new ScrapeRefusedError(err.message);
    throw new ScrapeRefusedError(timeout.aborted ? "the page did not load in time" : "the page could not be fetched");
  }
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const text = body.toString("utf8");
  if (type.includes("html") || (!type && /<html[\s>]/i.test(text))) return htmlToText(text);
  if (type.startsWith("text/") || type.includes("json") || type.includes("xml")) return text.trim();
  throw new ScrapeRefusedError(`the page is not text (${type.split(";")[0]})`);
}
