import { createServer, type Server } from "node:http";
import { Keypair } from "@solana/web3.js";
import { closeNow, listenLocally } from "./local-server";

/**
 * The smallest Solana JSON-RPC 2.0 server a transaction builder needs: it answers
 * `getLatestBlockhash` with a fresh blockhash and refuses every other method with "method not
 * found", recording each method asked for so tests can check which calls a builder made.
 */
export interface BlockhashRpc {
  url: string;
  /** Every method asked for, in order. */
  methods: string[];
  /** The blockhashes handed out, in order. */
  blockhashes: string[];
  close(): Promise<void>;
}

export async function startBlockhashRpc(): Promise<BlockhashRpc> {
  const methods: string[] = [];
  const blockhashes: string[] = [];
  let slot = 1_000;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const calls = JSON.parse(body);
      const answers = (Array.isArray(calls) ? calls : [calls]).map((call: { id: unknown; method: string }) => {
        methods.push(call.method);
        if (call.method !== "getLatestBlockhash") {
          return { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "Method not found" } };
        }
        // Any 32 bytes in base58 form a valid blockhash; a public key is exactly that.
        const blockhash = Keypair.generate().publicKey.toBase58();
        blockhashes.push(blockhash);
        slot += 1;
        return {
          jsonrpc: "2.0",
          id: call.id,
          result: { context: { slot }, value: { blockhash, lastValidBlockHeight: slot + 150 } },
        };
      });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(Array.isArray(calls) ? answers : answers[0]));
    });
  });
  return {
    url: await listenLocally(server),
    methods,
    blockhashes,
    close: () => closeNow(server),
  };
}
