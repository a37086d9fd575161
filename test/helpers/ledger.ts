import { expect } from "chai";
import { config } from "../../shared/config";
import { accountSpendKey, SPEND_FIELDS } from "../../shared/limits/shared-spend";
import { inFlightKey, sentField } from "../../workers/agents/spend-pools";
import { utcDay } from "../../shared/limits/utc-day";
import type { Harness } from "./harness";
import { eventually } from "./http";

/** A run's calls noted in flight in the pools, and how many of them are marked sent. */
export async function notedCalls(h: Harness, runId: string): Promise<{ noted: number; sent: number }> {
  const fields = Object.keys(await h.deps.redis.hgetall(inFlightKey(runId, config.queue.prefix)));
  const sent = fields.filter((field) => fields.some((step) => field !== step && field === sentField(step))).length;
  return { noted: fields.length - sent, sent };
}

/**
 * Whether the run has a call with the provider (noted in flight in the pools and marked sent as its
 * request was written): the moment to kill its worker. A call only noted has not left yet.
 */
export const callInFlight = (h: Harness) => async (runId: string) => {
  const { noted, sent } = await notedCalls(h, runId);
  return noted === 1 && sent === 1;
};

/** One row of a run's billing ledger: a call's step or another charge. */
export interface LedgerStep {
  step_key: string;
  status: string;
  agent_name: string;
  input_tokens: number;
  output_tokens: number;
  cost: number;
  output: any;
}

/** A run's bill as its row stores it, beside the sum of its ledger (steps and charges). */
export async function runLedger(
  h: Harness,
  runId: string,
): Promise<{
  billed: number | null;
  ledger: number;
  steps: LedgerStep[];
  charges: { charge_key: string; kind: string; amount: number }[];
}> {
  const [row] = await h.deps.ds.query(`SELECT billed_cost, ledger_cost FROM usage_ledger WHERE run_id = $1`, [runId]);
  const steps = await h.deps.ds.query(
    `SELECT step_key, status, agent_name, input_tokens, output_tokens, cost, output FROM run_steps WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
  const charges = await h.deps.ds.query(
    `SELECT charge_key, kind, amount FROM run_charges WHERE run_id = $1 ORDER BY created_at, charge_key`,
    [runId],
  );
  return {
    billed: row.billed_cost === null ? null : Number(row.billed_cost),
    ledger: Number(row.ledger_cost),
    steps,
    charges: charges.map((c: { charge_key: string; kind: string; amount: string }) => ({
      ...c,
      amount: Number(c.amount),
    })),
  };
}

/** The account's spend of today as the shared daily pool in Redis counts it (what its ceiling is checked against). */
async function accountPool(h: Harness, userId: string): Promise<{ tokens: number; cost: number; reserved: number }> {
  const { tokens, cost, reserved } = SPEND_FIELDS;
  const [t, c, r] = await h.deps.redis.hmget(accountSpendKey(userId, utcDay(new Date())), tokens, cost, reserved);
  return { tokens: Number(t ?? 0), cost: Number(c ?? 0), reserved: Number(r ?? 0) };
}

/** The account's whole ledger: its runs' calls (tokens, cost) and other charges. */
async function accountLedger(h: Harness, userId: string): Promise<{ tokens: number; cost: number }> {
  const [row] = await h.deps.ds.query(
    `SELECT coalesce(sum(input_tokens + output_tokens), 0)::float8 AS tokens, coalesce(sum(ledger_cost), 0)::float8 AS cost
       FROM usage_ledger WHERE user_id = $1`,
    [userId],
  );
  return { tokens: Number(row.tokens), cost: Number(row.cost) };
}

/**
 * Waits until no call of the account holds a reservation, then checks that its daily pool in Redis
 * (what its spend ceiling is checked against) counted what its ledger holds.
 */
export async function expectPoolMatchesLedger(h: Harness, userId: string): Promise<{ tokens: number; cost: number }> {
  const pool = await eventually(async () => {
    const read = await accountPool(h, userId);
    return read.reserved === 0 ? read : undefined;
  });
  const account = await accountLedger(h, userId);
  expect(pool.cost, "the daily pool's dollars are the ledger's").to.be.closeTo(account.cost, 1e-9);
  expect(pool.tokens, "and its tokens").to.equal(account.tokens);
  return pool;
}
