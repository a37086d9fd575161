import { expect } from "chai";
import {
  createPriceSource,
  HttpPriceSource,
  PriceUnavailableError,
  usdToCurrency,
  type HttpPriceSettings,
} from "../../../shared/prices";
import { startPriceServer, type PriceServer } from "../../helpers/price-server";

async function unavailable(promise: Promise<unknown>): Promise<PriceUnavailableError> {
  const caught = await promise.then(
    () => null,
    (err) => err,
  );
  expect(caught).to.be.instanceOf(PriceUnavailableError);
  expect(caught.status).to.equal(503);
  return caught;
}

describe("prices: USD → SOL from a CoinGecko-compatible endpoint", () => {
  let server: PriceServer;
  let now: number;
  const clock = () => now;
  let settings: HttpPriceSettings;

  beforeEach(async () => {
    server = await startPriceServer({ usd: 200 });
    now = Date.parse("2026-11-22T12:00:00Z");
    settings = { sourceUrl: server.url, currencyId: "solana", cacheMs: 30_000, maxAgeMs: 600_000, timeoutMs: 1_000 };
  });
  afterEach(() => server.close());

  it("asks for the configured currency in USD and converts to 9 decimals", async () => {
    const source = new HttpPriceSource(settings, clock);
    const quote = await source.usdPrice();
    expect(quote.usd).to.equal(200);
    const asked = server.requests[0];
    expect(asked.pathname).to.equal("/api/v3/simple/price");
    expect(asked.searchParams.get("ids")).to.equal("solana");
    expect(asked.searchParams.get("vs_currencies")).to.equal("usd");
    expect(usdToCurrency(9.99, quote)).to.equal(0.04995);
    expect(usdToCurrency(1, { usd: 3, asOf: new Date() })).to.equal(0.333333333);
  });

  it("reuses a price for the cache period, then asks again", async () => {
    const source = new HttpPriceSource(settings, clock);
    await Promise.all([source.usdPrice(), source.usdPrice(), source.usdPrice()]);
    now += 29_000;
    await source.usdPrice();
    expect(server.requests).to.have.length(1);
    server.set({ usd: 210 });
    now += 2_000;
    expect((await source.usdPrice()).usd).to.equal(210);
    expect(server.requests).to.have.length(2);
  });

  it("keeps the last price while the source is down, but never past the maximum age", async () => {
    const source = new HttpPriceSource(settings, clock);
    await source.usdPrice();
    server.set({ status: 500 });
    now += 5 * 60_000;
    expect((await source.usdPrice()).usd).to.equal(200);
    now += 5 * 60_000 + 1;
    const err = await unavailable(source.usdPrice());
    expect(err.message).to.match(/solana/);
  });

  it("has no price when the source is down from the start (no made-up fallback)", async () => {
    server.set({ status: 503 });
    await unavailable(new HttpPriceSource(settings, clock).usdPrice());
  });

  it("refuses a price the source itself reports as older than the maximum age", async () => {
    server.set({ usd: 180, lastUpdatedAt: (now - 11 * 60_000) / 1000 });
    await unavailable(new HttpPriceSource(settings, clock).usdPrice());
    server.set({ usd: 180, lastUpdatedAt: (now - 60_000) / 1000 });
    now += 31_000;
    expect((await new HttpPriceSource(settings, clock).usdPrice()).usd).to.equal(180);
  });

  it("treats malformed answers and a hanging source as no price", async () => {
    server.set({ body: { solana: { usd: "cheap" } } });
    await unavailable(new HttpPriceSource(settings, clock).usdPrice());
    server.set({ body: { bitcoin: { usd: 1 } } });
    await unavailable(new HttpPriceSource(settings, clock).usdPrice());
    server.set({ hang: true });
    const started = Date.now();
    await unavailable(new HttpPriceSource({ ...settings, timeoutMs: 200 }, clock).usdPrice());
    expect(Date.now() - started).to.be.below(5_000);
  });

  it("uses the fixed price when one is configured, asking nobody", async () => {
    const source = createPriceSource({ ...settings, fixedUsd: 125 });
    expect((await source.usdPrice()).usd).to.equal(125);
    expect(server.requests).to.have.length(0);
  });
});
