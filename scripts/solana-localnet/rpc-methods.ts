import { createHash } from "node:crypto";
import bs58 from "bs58";
import { JSONRPCErrorException, JSONRPCServer } from "json-rpc-2.0";
import { address, type Address } from "@solana/kit";
import { type Ledger, MalformedTransactionError, PreflightError } from "./ledger";

/** The validator's JSON-RPC error codes that clients act on. */
export const RPC_ERRORS = {
  invalidParams: -32602,
  preflightFailed: -32002,
  signatureVerification: -32003,
} as const;

const API_VERSION = "2.2.0";
/** Fixed per process: it identifies "this network" (clients compare it to tell clusters apart). */
const GENESIS_HASH = bs58.encode(createHash("sha256").update("apiary-localnet").digest());
const SLOTS_PER_EPOCH = 432_000;

type Params = unknown[];

function invalidParams(message: string): never {
  throw new JSONRPCErrorException(`Invalid params: ${message}`, RPC_ERRORS.invalidParams);
}

function listParams(params: unknown): Params {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) invalidParams("expected an array of parameters");
  return params;
}

function pubkey(value: unknown): Address {
  if (typeof value !== "string") invalidParams("expected a base58 public key");
  try {
    return address(value);
  } catch {
    return invalidParams(`invalid public key '${value}'`);
  }
}

function options(params: Params, index: number): Record<string, unknown> {
  const value = params[index];
  return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
}

/** Wire transaction bytes in the encoding the client named (web3.js sends base64; older clients base58). */
function wireBytes(value: unknown, encoding: unknown): Uint8Array {
  if (typeof value !== "string") invalidParams("expected an encoded transaction");
  const enc = encoding ?? "base58";
  if (enc === "base64") {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) invalidParams("invalid base64 encoding");
    return Buffer.from(value, "base64");
  }
  if (enc === "base58") {
    try {
      return bs58.decode(value);
    } catch {
      return invalidParams("invalid base58 encoding");
    }
  }
  return invalidParams(`unsupported encoding: ${String(enc)}. Supported encodings: base58, base64`);
}

/** The RPC methods a web3.js `Connection` uses for transfers, token mints and confirmations. */
export function createRpcServer(ledger: Ledger): JSONRPCServer {
  const rpc = new JSONRPCServer({
    errorListener: (message, error) => {
      if (!(error instanceof JSONRPCErrorException))
        process.stderr.write(`[solana-localnet] ${message} ${String(error)}\n`);
    },
  });
  const context = () => ({ slot: ledger.slot, apiVersion: API_VERSION });
  const withContext = <T>(value: T) => ({ context: context(), value });

  const account = (key: Address, config: Record<string, unknown>) => {
    const found = ledger.svm.getAccount(key);
    if (!found.exists) return null;
    let data = Buffer.from(found.data);
    const slice = config.dataSlice as { offset?: number; length?: number } | undefined;
    if (slice) data = data.subarray(slice.offset ?? 0, (slice.offset ?? 0) + (slice.length ?? data.length));
    // jsonParsed falls back to base64 for data without a parser, as the validator does.
    const encoded = config.encoding === "base58" ? [bs58.encode(data), "base58"] : [data.toString("base64"), "base64"];
    return {
      data: encoded,
      executable: found.executable,
      lamports: Number(found.lamports),
      owner: found.programAddress,
      rentEpoch: 0,
      space: Number(found.space),
    };
  };

  const methods: Record<string, (params: Params) => unknown> = {
    getHealth: () => "ok",
    getVersion: () => ({ "solana-core": API_VERSION, "feature-set": 0 }),
    getGenesisHash: () => GENESIS_HASH,
    getSlot: () => ledger.slot,
    getBlockHeight: () => ledger.blockHeight,
    getEpochInfo: () => ({
      absoluteSlot: ledger.slot,
      blockHeight: ledger.blockHeight,
      epoch: Math.floor(ledger.slot / SLOTS_PER_EPOCH),
      slotIndex: ledger.slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: ledger.sends.length,
    }),
    getLatestBlockhash: () => withContext(ledger.latestBlockhash()),
    isBlockhashValid: (p) => {
      if (typeof p[0] !== "string") invalidParams("expected a blockhash");
      return withContext(ledger.isBlockhashValid(p[0]));
    },
    getBalance: (p) => withContext(Number(ledger.svm.getBalance(pubkey(p[0])) ?? 0n)),
    getMinimumBalanceForRentExemption: (p) => {
      const size = Number(p[0] ?? 0);
      if (!Number.isInteger(size) || size < 0) invalidParams("expected a data length");
      return Number(ledger.svm.minimumBalanceForRentExemption(BigInt(size)));
    },
    getAccountInfo: (p) => withContext(account(pubkey(p[0]), options(p, 1))),
    getMultipleAccounts: (p) => {
      if (!Array.isArray(p[0])) invalidParams("expected an array of public keys");
      return withContext(p[0].map((key) => account(pubkey(key), options(p, 1))));
    },
    requestAirdrop: (p) => {
      const amount = p[1];
      if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0)
        invalidParams("expected a lamport amount");
      return ledger.airdrop(pubkey(p[0]), BigInt(amount));
    },
    sendTransaction: (p) => {
      const config = options(p, 1);
      try {
        return ledger.submit(wireBytes(p[0], config.encoding), { skipPreflight: config.skipPreflight === true });
      } catch (err) {
        if (err instanceof MalformedTransactionError) invalidParams(err.message);
        if (err instanceof PreflightError) {
          if (err.kind === "signature")
            throw new JSONRPCErrorException(
              "Transaction signature verification failure",
              RPC_ERRORS.signatureVerification,
            );
          throw new JSONRPCErrorException(
            `Transaction simulation failed: ${err.error.text}`,
            RPC_ERRORS.preflightFailed,
            {
              accounts: null,
              err: err.error.json,
              innerInstructions: null,
              logs: err.logs,
              replacementBlockhash: null,
              returnData: null,
              unitsConsumed: err.unitsConsumed,
            },
          );
        }
        throw err;
      }
    },
    simulateTransaction: (p) => {
      const config = options(p, 1);
      const replace = config.replaceRecentBlockhash === true;
      let result;
      try {
        result = ledger.simulate(wireBytes(p[0], config.encoding), {
          sigVerify: config.sigVerify === true,
          replaceRecentBlockhash: replace,
        });
      } catch (err) {
        if (err instanceof MalformedTransactionError) invalidParams(err.message);
        throw err;
      }
      return withContext({
        ...result,
        accounts: null,
        innerInstructions: null,
        returnData: null,
        replacementBlockhash: replace ? ledger.latestBlockhash() : null,
      });
    },
    getSignatureStatuses: (p) => {
      if (!Array.isArray(p[0])) invalidParams("expected an array of signatures");
      return withContext(
        p[0].map((signature) => {
          const landed = typeof signature === "string" ? ledger.status(signature) : null;
          if (!landed) return null;
          return {
            slot: landed.slot,
            confirmations: null, // final: this ledger has no forks
            err: landed.err,
            status: landed.err === null ? { Ok: null } : { Err: landed.err },
            confirmationStatus: "finalized",
          };
        }),
      );
    },
  };

  for (const [name, method] of Object.entries(methods)) rpc.addMethod(name, (params) => method(listParams(params)));
  return rpc;
}
