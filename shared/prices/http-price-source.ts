import { PriceUnavailableError, type PriceQuote, type PriceSource } from "./price-source";

export interface HttpPriceSettings {
  /** A CoinGecko-compatible simple-price endpoint. */
  sourceUrl: string;
  /** The source's id of the currency (`solana`). */
  currencyId: string;
  /** How long a fetched price is reused before asking again. */
  cacheMs: number;
  /** The oldest price ever used; older means unavailable. */
  maxAgeMs: number;
  timeoutMs: number;
}

interface CachedQuote extends PriceQuote {
  fetchedAt: number;
}

/**
 * USD prices from a CoinGecko-compatible `simple/price` endpoint
 * (`?ids=<id>&vs_currencies=usd&include_last_updated_at=true`), reused for `cacheMs`. When the
 * source fails, the last price is used while it is younger than `maxAgeMs` (counted from the
 * source's own `last_updated_at` when it gives one); after that there is no price at all rather
 * than a made-up one. Concurrent callers share one request.
 */
export class HttpPriceSource implements PriceSource {
  private last: CachedQuote | null = null;
  private inflight: Promise<CachedQuote> | null = null;

  constructor(
    private readonly settings: HttpPriceSettings,
    private readonly clock: () => number = Date.now,
  ) {}

  async usdPrice(): Promise<PriceQuote> {
    const now = this.clock();
    if (!this.last || now - this.last.fetchedAt >= this.settings.cacheMs) {
      try {
        const fetched = await (this.inflight ??= this.fetchQuote().finally(() => (this.inflight = null)));
        if (!this.last || fetched.asOf >= this.last.asOf) this.last = fetched;
      } catch (err) {
        if (!this.usable(this.last, now))
          throw new PriceUnavailableError(`No recent ${this.settings.currencyId} price: ${(err as Error).message}`);
        // Ask a failing source again only after another cache period, not on every request.
        this.last = { ...this.last, fetchedAt: now };
      }
    }
    if (!this.usable(this.last, now))
      throw new PriceUnavailableError(
        `The latest ${this.settings.currencyId} price is older than ${this.settings.maxAgeMs / 1000} s`,
      );
    return { usd: this.last.usd, asOf: this.last.asOf };
  }

  private usable(quote: CachedQuote | null, now: number): quote is CachedQuote {
    return quote !== null && now - quote.asOf.getTime() <= this.settings.maxAgeMs;
  }

  private async fetchQuote(): Promise<CachedQuote> {
    const url = new URL(this.settings.sourceUrl);
    url.searchParams.set("ids", this.settings.currencyId);
    url.searchParams.set("vs_currencies", "usd");
    url.searchParams.set("include_last_updated_at", "true");
    const res = await fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(this.settings.timeoutMs),
    }).catch((err) => {
      throw new Error(
        err?.name === "TimeoutError" ? "the price source did not answer in time" : "the price source is unreachable",
      );
    });
    if (!res.ok) throw new Error(`the price source answered HTTP ${res.status}`);
    const entry = (
      (await res.json().catch(() => null)) as Record<string, { usd?: unknown; last_updated_at?: unknown }> | null
    )?.[this.settings.currencyId];
    const usd = entry?.usd;
    if (typeof usd !== "number" || !Number.isFinite(usd) || usd <= 0)
      throw new Error("the price source gave no usable USD price");
    const fetchedAt = this.clock();
    const updated = entry?.last_updated_at;
    const asOf =
      typeof updated === "number" && Number.isFinite(updated) ? Math.min(updated * 1000, fetchedAt) : fetchedAt;
    return { usd, asOf: new Date(asOf), fetchedAt };
  }
}
