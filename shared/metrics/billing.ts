import { Counter } from "prom-client";
import { PREFIX, workerRegistry } from "./registry";

/** The part of the billing ledger an amount was stored in: a call's step, or a charge of a kind. */
export type LedgerEntryKind =
  "llm_call" | "tool_call" | "agent" | "image" | "tool" | "mcp_call" | "search" | "discount";

const registers = [workerRegistry];
const labelNames = ["kind"] as const;

const billed = new Counter({
  name: `${PREFIX}billed_usd_total`,
  help: "What this process stored in the billing ledger (run_steps, run_charges) as charged to runs, in US dollars, by kind: calls (cut-off and interrupted ones included) and fees. Less apiary_credited_usd_total, summed over the workers, it is what GET /v1/usage reports",
  labelNames,
  registers,
});

const credited = new Counter({
  name: `${PREFIX}credited_usd_total`,
  help: "What this process stored in the billing ledger as taken off runs' bills, in US dollars, by kind: refunds of fees and discounts",
  labelNames,
  registers,
});

/**
 * Counts an amount this process stored in the ledger (never one that an earlier attempt stored
 * and a retry replays): a charge, or a credit when negative (a counter only goes up).
 */
export function countLedgerEntry(kind: LedgerEntryKind, dollars: number): void {
  if (dollars > 0) billed.inc({ kind }, dollars);
  else if (dollars < 0) credited.inc({ kind }, -dollars);
}
