import bs58 from "bs58";
import { Transaction, type VersionedTransaction } from "@solana/web3.js";

/** What the chain worker needs of a signed transaction, legacy or versioned. */
export interface SignedTransactionInfo {
  /** The fee payer's signature: the transaction's id on the network. */
  signature: string;
  /** The blockhash it was built on; it can land only while this is valid. */
  blockhash: string;
  wire: Buffer;
}

export function describeSigned(tx: Transaction | VersionedTransaction): SignedTransactionInfo {
  if (tx instanceof Transaction) {
    if (!tx.signature || !tx.recentBlockhash) throw new Error("The launcher returned an unsigned transaction");
    return { signature: bs58.encode(tx.signature), blockhash: tx.recentBlockhash, wire: tx.serialize() };
  }
  const first = tx.signatures[0];
  if (!first || first.every((b) => b === 0)) throw new Error("The launcher returned an unsigned transaction");
  return { signature: bs58.encode(first), blockhash: tx.message.recentBlockhash, wire: Buffer.from(tx.serialize()) };
}
