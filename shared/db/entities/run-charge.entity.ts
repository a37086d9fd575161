import { EntitySchema } from "typeorm";

/** What a charge that is not a call pays for (a refund or a discount is a negative amount). */
export type ChargeKind = "agent" | "image" | "tool" | "mcp_call" | "search" | "discount";

/**
 * One charge on a run's bill besides its calls' tokens: a per-agent charge, an image, a built-in
 * tool's fee, an MCP call, a search, a refund of one (negative), or a discount (negative). With
 * `run_steps` it is the billing ledger: a run's bill is the sum of both, and every other figure
 * (usage, reports, ceilings, metrics) is summed from them.
 */
export interface RunCharge {
  run_id: string;
  /** Stable within the run, so a retried job finds the charges it made already and makes none twice. */
  charge_key: string;
  kind: ChargeKind;
  /** The agent the charge is for, when it is one agent's. */
  agent_name: string | null;
  /** US dollars at the price billed. */
  amount: number;
  created_at: Date;
  /** Which attempt of its run stored it (1 unless the run was retried); set by the insert, from the run. */
  attempt?: number;
}

export const RunChargeEntity = new EntitySchema<RunCharge>({
  name: "RunCharge",
  tableName: "run_charges",
  columns: {
    run_id: { type: "uuid", primary: true },
    charge_key: { type: "text", primary: true },
    kind: { type: "text" },
    agent_name: { type: "text", nullable: true },
    amount: { type: "double precision" },
    created_at: { type: "timestamptz", createDate: true },
    attempt: { type: "int", default: 1 },
  },
});
