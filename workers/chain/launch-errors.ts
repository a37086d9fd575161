import { SendTransactionError } from "@solana/web3.js";

/**
 * The launch failed and trying again would not help (the network refused or failed a transaction,
 * the launcher could not build one). Its message is shown to the client: it never holds a key.
 */
export class LaunchFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LaunchFailedError";
  }
}

const TRANSIENT =
  /fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|timed? ?out|429|502|503|504|Too Many Requests|Service Unavailable|Bad Gateway/i;

/** Whether an RPC error is the network being unreachable or busy (worth a retry of the job). */
export function isTransientRpcError(err: unknown): boolean {
  return !(err instanceof SendTransactionError) && TRANSIENT.test(err instanceof Error ? err.message : String(err));
}

/** The first line of a refused send ("Transaction simulation failed: …"), without the log dump. */
export function refusalText(err: SendTransactionError): string {
  return (
    err.message
      .split("\n")
      .find((line) => line.trim() && !/^Simulation failed\.?\s*$/.test(line.trim()))
      ?.replace(/^Message:\s*/, "")
      .trim() ?? "rejected"
  );
}
