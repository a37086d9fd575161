import { config, type Config } from "../../shared/config";
import { headOf, SEARCH_HIT_TITLE_MAX_CHARS, SEARCH_HIT_URL_MAX_CHARS } from "../../shared/limits/outside-content";

type SearchSettings = Config["builtinTools"]["search"];

/** One search hit as the model (and advanced research's `sources`) sees it. */
export interface SearchHit {
  title: string;
  url: string;
  publishedDate: string | null;
  text: string;
}

export interface SearchOptions {
  numResults?: number;
  maxCharacters?: number;
  signal?: AbortSignal;
}

/** The provider could not answer; the message says why without repeating its key. */
export class SearchFailedError extends Error {
  override name = "SearchFailedError";
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

/** A provider's `results` as hits, ignoring entries without a URL (nothing to cite). */
function hitsOf(body: unknown, numResults: number, maxCharacters: number): SearchHit[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new SearchFailedError("the search provider's answer has no results list");
  // A provider that ignores numResults or maxCharacters still cannot flood the model.
  return results.slice(0, numResults).flatMap((raw): SearchHit[] => {
    const r = (raw ?? {}) as Record<string, unknown>;
    if (typeof r.url !== "string" || !r.url || r.url.length > SEARCH_HIT_URL_MAX_CHARS) return [];
    return [
      {
        title: headOf(stringOr(r.title, r.url), SEARCH_HIT_TITLE_MAX_CHARS),
        url: r.url,
        publishedDate: typeof r.publishedDate === "string" ? headOf(r.publishedDate, 64) : null,
        text: headOf(stringOr(r.text, ""), maxCharacters),
      },
    ];
  });
}

/**
 * One web search at the operator's provider, in Exa's protocol: `POST <url>/search` with the
 * operator's key as `x-api-key` and `{query, numResults, contents: {text: {maxCharacters}}}`. The
 * provider's address is the operator's, not a client's, so it is not under the egress policy;
 * nothing the client sent becomes a header.
 */
export async function webSearch(
  query: string,
  options: SearchOptions = {},
  settings: SearchSettings = config.builtinTools.search,
): Promise<SearchHit[]> {
  if (!settings.url) throw new SearchFailedError("no search provider is configured");
  const maxCharacters = options.maxCharacters ?? settings.maxCharacters;
  const numResults = options.numResults ?? settings.numResults;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(new URL("search", settings.url.endsWith("/") ? settings.url : `${settings.url}/`), {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": settings.apiKey },
      body: JSON.stringify({
        query,
        numResults,
        contents: { text: { maxCharacters } },
      }),
      signal,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err; // the run's own cancellation, not the provider's trouble
    throw new SearchFailedError(
      timeout.aborted ? "the search provider did not answer in time" : "the search provider is unreachable",
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SearchFailedError(`the search provider answered ${response.status}`);
  }
  const body: unknown = await response.json().catch(() => null);
  return hitsOf(body, numResults, maxCharacters);
}

/** Hits as the text a model reads: numbered, each with its title, address, date and excerpt. */
export function searchResultText(query: string, hits: SearchHit[]): string {
  if (hits.length === 0) return `No web results for "${query}".`;
  const entries = hits.map((hit, i) =>
    [
      `[${i + 1}] ${hit.title}`,
      `URL: ${hit.url}`,
      ...(hit.publishedDate ? [`Published: ${hit.publishedDate}`] : []),
      hit.text,
    ]
      .filter(Boolean)
      .join("\n"),
  );
  return `Web results for "${query}":\n\n${entries.join("\n\n")}`;
}
