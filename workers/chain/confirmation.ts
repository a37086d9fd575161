import type { Connection, SignatureStatus, TransactionError } from "@solana/web3.js";

/** How the wait for a set of signatures ended. */
export type Landing =
  | { kind: "landed" }
  /** One of them landed with an error (a transaction is atomic: it changed nothing but its fee). */
  | { kind: "failed"; signature: string; err: TransactionError }
  /** Their blockhashes expired with these still missing: they can never land now. */
  | { kind: "expired"; landed: string[] };

const DEFAULT_POLL_MS = 1_000;

function confirmed(status: SignatureStatus | null): boolean {
  return (
    !!status && !status.err && (status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized")
  );
}

async function statusesOf(connection: Connection, signatures: string[]): Promise<(SignatureStatus | null)[]> {
  return (await connection.getSignatureStatuses(signatures, { searchTransactionHistory: true })).value;
}

function judge(signatures: string[], statuses: (SignatureStatus | null)[]): Landing | null {
  const failed = statuses.findIndex((s) => s?.err);
  if (failed >= 0) return { kind: "failed", signature: signatures[failed], err: statuses[failed]!.err! };
  return statuses.every(confirmed) ? { kind: "landed" } : null;
}

/**
 * Waits until every signature is confirmed, one fails, or all their blockhashes have expired with
 * some still missing. Wakes on the websocket's signature notices and re-reads the statuses at
 * least every `pollMs` (a notice can be lost). "Expired" is decided only after a last status read
 * made once the blockhashes were seen invalid at the `confirmed` commitment: a transaction that
 * has not landed by then never can, so building a new one cannot make the launch happen twice.
 */
export async function awaitLanding(
  connection: Connection,
  signatures: string[],
  blockhashes: string[],
  options: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<Landing> {
  let wake: () => void = () => undefined;
  // A signature subscription ends by itself after its notice; only the others are removed.
  const live = new Set<number>();
  for (const signature of signatures) {
    const id: number = connection.onSignature(
      signature,
      () => {
        live.delete(id);
        wake();
      },
      "confirmed",
    );
    live.add(id);
  }
  try {
    for (;;) {
      const outcome = judge(signatures, await statusesOf(connection, signatures));
      if (outcome) return outcome;
      const valid = await Promise.all(
        blockhashes.map(async (hash) => (await connection.isBlockhashValid(hash, { commitment: "confirmed" })).value),
      );
      if (!valid.some(Boolean)) {
        const last = await statusesOf(connection, signatures);
        return judge(signatures, last) ?? { kind: "expired", landed: signatures.filter((_, i) => confirmed(last[i])) };
      }
      if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs ?? DEFAULT_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    await Promise.all([...live].map((id) => connection.removeSignatureListener(id).catch(() => undefined)));
  }
}
