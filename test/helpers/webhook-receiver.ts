import { createServer, type Server } from "node:http";
import { eventually } from "./http";
import { closeNow, listenLocally } from "./local-server";

/** One POST a receiver got: its headers (lower case) and its body as sent. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A local webhook receiver on 127.0.0.1 (which the tests' EGRESS_ALLOW names), answering as scripted. */
export interface WebhookReceiver {
  /** Its base URL (`http://127.0.0.1:<port>`). */
  url: string;
  received: ReceivedWebhook[];
  /** Waits, with a deadline, until `count` deliveries have arrived (at `path`, when given). */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * Starts a receiver. `statuses` are the answers to the first requests at a path, in order (then 200),
 * so a receiver that fails twice and recovers is `{ "/flaky": [500, 500] }`; a 0 never answers
 * (the request is held until the sender gives up or the receiver closes).
 */
export async function startWebhookReceiver(statuses: Record<string, number[]> = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answered = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ path, headers, body: Buffer.concat(chunks).toString("utf8") });
      const n = answered.get(path) ?? 0;
      answered.set(path, n + 1);
      if (statuses[path]?.[n] === 0) return;
      res.writeHead(statuses[path]?.[n] ?? 200, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  const url = await listenLocally(server);
  const at = (path?: string) => received.filter((r) => path === undefined || r.path === path);
  return {
    url,
    received,
    waitFor: (count, path, timeoutMs = 15_000) =>
      eventually(async () => (at(path).length >= count ? at(path) : undefined), timeoutMs),
    close: () => closeNow(server),
  };
}
