import { createServer, type Server } from "node:http";
import { closeNow, listenLocally } from "./local-server";

/** What the local price endpoint does next. */
export type PriceBehaviour =
  | { usd: number; lastUpdatedAt?: number }
  | { status: number }
  | { body: unknown }
  /** Accept the request and never answer (a source that hangs). */
  | { hang: true };

/** A local CoinGecko-compatible `simple/price` endpoint whose answers a test controls. */
export interface PriceServer {
  /** The endpoint, as `PRICE_SOURCE_URL` takes it. */
  url: string;
  /** Every request's URL, oldest first. */
  requests: URL[];
  set(behaviour: PriceBehaviour): void;
  close(): Promise<void>;
}

export async function startPriceServer(initial: PriceBehaviour = { usd: 150 }): Promise<PriceServer> {
  let behaviour = initial;
  const requests: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    requests.push(url);
    if ("hang" in behaviour) return;
    if ("status" in behaviour)
      return void res.writeHead(behaviour.status, { "content-type": "application/json" }).end('{"error":"down"}');
    const ids = url.searchParams.get("ids") ?? "";
    const body =
      "body" in behaviour
        ? behaviour.body
        : {
            [ids]: {
              usd: behaviour.usd,
              ...(behaviour.lastUpdatedAt !== undefined && url.searchParams.get("include_last_updated_at") === "true"
                ? { last_updated_at: behaviour.lastUpdatedAt }
                : {}),
            },
          };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  return {
    url: `${await listenLocally(server)}/api/v3/simple/price`,
    requests,
    set(next) {
      behaviour = next;
    },
    close: () => closeNow(server),
  };
}
