import type { SharedSpend } from "../../workers/agents/spend-pools";

/** Shared pools that grant every reservation and charge (or refuse them all) and record what the budget asks of them. */
export function recordingPools(refuse = false) {
  const calls: string[] = [];
  const pool = { exhausted: () => "The pool is spent" };
  const pools = {
    async reserve(prompt: number, granted: number, charge: number) {
      calls.push(`reserve ${prompt}+${granted} checking $${charge}`);
      return refuse ? { exhausted: pool, measure: "cost" } : { granted };
    },
    async settle(_reservation: unknown, tokens: number, cost: number) {
      calls.push(`settle ${tokens} tokens $${cost}`);
    },
    async charge(amount: number) {
      calls.push(`charge $${amount}`);
      return refuse ? pool : null;
    },
    async adjust(amount: number) {
      calls.push(`adjust $${amount}`);
    },
  };
  return { calls, pools: pools as unknown as SharedSpend };
}
