import { EventEmitter } from "node:events";
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import {
  address,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  type Transaction as KitTransaction,
} from "@solana/kit";
import {
  describeTransactionError,
  namedError,
  type DescribedError,
  type RpcTransactionError,
} from "./transaction-error";

/** How long a blockhash stays usable, in blocks (the validator's MAX_PROCESSING_AGE). */
const BLOCKHASH_VALID_BLOCKS = 150;

export interface LedgerOptions {
  /** Milliseconds per slot; the validator's target is 400. 0 stops the clock (slots move only on `advance`). */
  slotMs?: number;
}

/** What the ledger knows about a transaction that landed (successfully or with an error). */
export interface LandedTransaction {
  slot: number;
  err: RpcTransactionError | null;
  logs: string[];
  unitsConsumed: number;
}

/** One `sendTransaction` call as the network saw it (kept for tests: "was it sent twice?"). */
export interface SendRecord {
  signature: string;
  at: number;
  skipPreflight: boolean;
}

/** Preflight refused the transaction; the RPC layer turns this into a JSON-RPC error. */
export class PreflightError extends Error {
  constructor(
    readonly kind: "simulation" | "signature",
    readonly error: DescribedError,
    readonly logs: string[] = [],
    readonly unitsConsumed = 0,
  ) {
    super(error.text);
  }
}

/** The transaction bytes could not be decoded. */
export class MalformedTransactionError extends Error {}

interface Decoded {
  tx: KitTransaction;
  signature: string;
  blockhash: string;
}

const base58 = getBase58Decoder();

/**
 * A single-node ledger over LiteSVM with a validator's outward behaviour: slots advance with the
 * clock, each slot has a fresh blockhash that stays valid for 150 blocks, a signature lands at
 * most once, transactions that fail before execution are dropped while those that fail during
 * execution land with their error, and everything that lands is final at once (there are no forks).
 * LiteSVM's own blockhash check is off because it accepts only the newest hash; this class keeps
 * the queue of recent ones instead.
 */
export class Ledger extends EventEmitter {
  readonly svm = new LiteSVM().withBlockhashCheck(false).withNativeMints();
  slot = 0;
  blockHeight = 0;
  readonly sends: SendRecord[] = [];
  private readonly blockhashes = new Map<string, number>();
  private readonly landed = new Map<string, LandedTransaction>();
  private held: Decoded[] | null = null;
  private readonly timer: NodeJS.Timeout | null;

  constructor(options: LedgerOptions = {}) {
    super();
    this.setMaxListeners(0);
    this.advance(1);
    const slotMs = options.slotMs ?? 400;
    this.timer = slotMs > 0 ? setInterval(() => this.advance(1), slotMs) : null;
    this.timer?.unref();
  }

  /** Moves the ledger `slots` slots forward (a new blockhash each), announcing each slot. */
  advance(slots: number): void {
    for (let i = 0; i < slots; i++) {
      const parent = this.slot;
      this.slot += 1;
      this.blockHeight += 1;
      this.svm.expireBlockhash();
      this.svm.warpToSlot(BigInt(this.slot));
      const clock = this.svm.getClock();
      clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
      this.svm.setClock(clock);
      this.blockhashes.set(this.svm.latestBlockhash(), this.blockHeight + BLOCKHASH_VALID_BLOCKS);
      this.emit("slot", { parent, root: parent, slot: this.slot });
    }
    for (const [hash, lastValid] of this.blockhashes) if (lastValid < this.blockHeight) this.blockhashes.delete(hash);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const blockhash = this.svm.latestBlockhash();
    return { blockhash, lastValidBlockHeight: this.blockhashes.get(blockhash)! };
  }

  isBlockhashValid(blockhash: string): boolean {
    return (this.blockhashes.get(blockhash) ?? -1) >= this.blockHeight;
  }

  status(signature: string): LandedTransaction | null {
    return this.landed.get(signature) ?? null;
  }

  /** Sends of one signature seen so far. */
  sendsOf(signature: string): SendRecord[] {
    return this.sends.filter((s) => s.signature === signature);
  }

  /**
   * Accepts a wire transaction like `sendTransaction`: records the send, runs preflight unless
   * skipped (throwing PreflightError), then executes it — or queues it while `hold()` is on.
   */
  submit(bytes: Uint8Array, options: { skipPreflight: boolean }): string {
    const decoded = decode(bytes);
    this.sends.push({ signature: decoded.signature, at: Date.now(), skipPreflight: options.skipPreflight });
    if (!options.skipPreflight) this.preflight(decoded);
    if (this.held) this.held.push(decoded);
    else this.execute(decoded);
    return decoded.signature;
  }

  /** Simulates a wire transaction without changing state. */
  simulate(bytes: Uint8Array, options: { sigVerify: boolean; replaceRecentBlockhash: boolean }) {
    const decoded = decode(bytes);
    const blockhashOk = options.replaceRecentBlockhash || this.isBlockhashValid(decoded.blockhash);
    if (!blockhashOk) return { err: namedError("BlockhashNotFound").json, logs: [] as string[], unitsConsumed: 0 };
    if (!options.sigVerify) this.svm.withSigverify(false);
    try {
      const result = this.svm.simulateTransaction(decoded.tx);
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta();
        return {
          err: describeTransactionError(result).json,
          logs: meta.logs(),
          unitsConsumed: Number(meta.computeUnitsConsumed()),
        };
      }
      const meta = result.meta();
      return { err: null, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) };
    } catch {
      return { err: namedError("SignatureFailure").json, logs: [] as string[], unitsConsumed: 0 };
    } finally {
      if (!options.sigVerify) this.svm.withSigverify(true);
    }
  }

  /** Credits lamports from the ledger's faucet; returns the airdrop transaction's signature. */
  airdrop(to: string, amount: bigint): string {
    for (let attempt = 0; ; attempt++) {
      const result = this.svm.airdrop(address(to), lamports(amount));
      if (result && !(result instanceof FailedTransactionMetadata)) {
        const signature = base58.decode(result.signature());
        this.land(signature, result, null);
        return signature;
      }
      // The same airdrop twice in one slot is the same transaction: take the next slot's blockhash.
      if (attempt === 0 && result && describeTransactionError(result).json === "AlreadyProcessed") {
        this.advance(1);
        continue;
      }
      throw new Error(`airdrop failed: ${result ? describeTransactionError(result).text : "no result"}`);
    }
  }

  /** From now on, accepted transactions wait (like a congested leader) until `release()`. */
  hold(): void {
    this.held ??= [];
  }

  /** Executes the held transactions in order, or drops them (as a leader may) with `drop`. */
  release(options: { drop?: boolean } = {}): void {
    const queued = this.held ?? [];
    this.held = null;
    if (!options.drop) for (const decoded of queued) this.execute(decoded);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.removeAllListeners();
  }

  private preflight(decoded: Decoded): void {
    if (this.landed.has(decoded.signature)) throw new PreflightError("simulation", namedError("AlreadyProcessed"));
    if (!this.isBlockhashValid(decoded.blockhash))
      throw new PreflightError("simulation", namedError("BlockhashNotFound"));
    let result;
    try {
      result = this.svm.simulateTransaction(decoded.tx);
    } catch {
      throw new PreflightError("signature", namedError("SignatureFailure")); // a signature is missing
    }
    if (result instanceof FailedTransactionMetadata) {
      const error = describeTransactionError(result);
      if (error.json === "SignatureFailure") throw new PreflightError("signature", error);
      const meta = result.meta();
      throw new PreflightError("simulation", error, meta.logs(), Number(meta.computeUnitsConsumed()));
    }
  }

  /** Runs a transaction; one that cannot land (stale blockhash, duplicate, bad signature) is dropped silently, as on a cluster. */
  private execute(decoded: Decoded): void {
    if (this.landed.has(decoded.signature) || !this.isBlockhashValid(decoded.blockhash)) return;
    let result: TransactionMetadata | FailedTransactionMetadata;
    try {
      result = this.svm.sendTransaction(decoded.tx);
    } catch {
      return;
    }
    if (result instanceof FailedTransactionMetadata) {
      const error = describeTransactionError(result);
      if (error.landed) this.land(decoded.signature, result.meta(), error.json);
      return;
    }
    this.land(decoded.signature, result, null);
  }

  private land(signature: string, meta: TransactionMetadata, err: RpcTransactionError | null): void {
    const landed: LandedTransaction = {
      slot: this.slot,
      err,
      logs: meta.logs(),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
    };
    this.landed.set(signature, landed);
    this.emit("landed", signature, landed);
  }
}

function decode(bytes: Uint8Array): Decoded {
  let tx: KitTransaction;
  let blockhash: string;
  try {
    tx = getTransactionDecoder().decode(bytes);
    blockhash = getCompiledTransactionMessageDecoder().decode(tx.messageBytes).lifetimeToken;
  } catch (err) {
    throw new MalformedTransactionError(
      `failed to deserialize transaction: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const first = Object.values(tx.signatures)[0];
  // An unsigned fee payer slot still identifies the transaction (all zeros), as on a validator.
  const signature = base58.decode(first ?? new Uint8Array(64));
  return { tx, signature, blockhash };
}
