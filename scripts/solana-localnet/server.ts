import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import { Ledger, type LedgerOptions } from "./ledger";
import { createPubsubServer, type PubsubParams } from "./pubsub";
import { createRpcServer } from "./rpc-methods";

export const DEFAULT_PORT = 8899;
/** Requests are JSON-RPC calls with a transaction of at most 1,232 bytes; batches stay far below this. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface LocalnetOptions extends LedgerOptions {
  host?: string;
  /** JSON-RPC over HTTP; the websocket listens on the next port, as a validator does. Default 8899. */
  port?: number;
}

export interface Localnet {
  rpcUrl: string;
  wsUrl: string;
  port: number;
  /** The ledger behind the RPC (tests: `sendsOf`, `hold`, `release`, `advance`). */
  ledger: Ledger;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: string, type = "application/json"): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function listen(
  server: {
    listen: (port: number, host: string, cb: () => void) => unknown;
    once: (e: "error", cb: (err: Error) => void) => unknown;
  },
  port: number,
  host: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
}

/**
 * A local Solana network: a validator-shaped JSON-RPC over HTTP on `port` and its websocket
 * (subscriptions) on `port + 1`, both over one in-process LiteSVM ledger with SPL Token,
 * Token-2022 and the associated-token program. An unmodified web3.js `Connection` works against it.
 */
export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const host = options.host ?? "127.0.0.1";
  const ledger = new Ledger(options);
  const rpc = createRpcServer(ledger);
  const pubsub = createPubsubServer(ledger);

  const http = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/health") return send(res, 200, "ok", "text/plain");
    if (req.method !== "POST") return send(res, 405, JSON.stringify({ error: "use POST for JSON-RPC" }));
    readBody(req).then(
      async (body) => {
        if (body === null) return send(res, 413, JSON.stringify({ error: "request too large" }));
        const reply = await rpc.receiveJSON(body);
        send(res, 200, reply === null ? "" : JSON.stringify(reply));
      },
      () => send(res, 400, JSON.stringify({ error: "could not read the request" })),
    );
  });
  http.keepAliveTimeout = 65_000;
  await listen(http, options.port ?? DEFAULT_PORT, host);
  const port = (http.address() as AddressInfo).port;

  const ws = new WebSocketServer({ host, port: port + 1 });
  await new Promise<void>((resolve, reject) => {
    ws.once("listening", resolve);
    ws.once("error", reject);
  }).catch(async (err) => {
    await new Promise((resolve) => http.close(resolve));
    ledger.close();
    throw err;
  });
  ws.on("connection", (socket) => {
    const params: PubsubParams = { socket, subscriptions: new Map() };
    socket.on("message", async (data) => {
      const reply = await pubsub.receiveJSON(String(data), params);
      if (reply !== null && socket.readyState === socket.OPEN) socket.send(JSON.stringify(reply));
    });
    socket.on("close", () => {
      for (const stop of [...params.subscriptions.values()]) stop();
    });
  });

  const shown = host === "0.0.0.0" ? "127.0.0.1" : host;
  return {
    rpcUrl: `http://${shown}:${port}`,
    wsUrl: `ws://${shown}:${port + 1}`,
    port,
    ledger,
    async close() {
      ledger.close();
      for (const client of ws.clients) client.terminate();
      await new Promise((resolve) => ws.close(resolve));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
