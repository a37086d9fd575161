import { createHash } from "node:crypto";
import { config, type Config } from "../../shared/config";
import type { ChargeKind } from "../../shared/db/entities/run-charge.entity";
import { roundCost } from "../../shared/llm/pricing";
import type { BuiltinTool } from "../../shared/tools/builtin-tools";
import type { AgentContext, UsageCounter } from "./agent-context";
import type { StepRecorder } from "./step-recorder";
import { builtinToolFees } from "./builtin-tool-fees";

/** What a run's bill holds besides its tokens, each part at list price (unrounded). */
export interface RunCharges {
  agentCost: number;
  imgCost: number;
  mcpCost: number;
  /** Advanced research's searches, each billed once the provider answered it. */
  searchCost: number;
  /** The flat fees of the built-in tools the run enabled. */
  tools: ReturnType<typeof builtinToolFees>;
  total: number;
}

/**
 * The charges on a run's bill besides its tokens: the per-agent charge, images, MCP calls, the
 * flat fee of each built-in tool enabled and advanced research's searches. The one definition the
 * bills (agent, swarm and research usage) are made from and the run's budget counts with
 * (`incur`, `callerCharge`, `recordCaller`), so the two cannot disagree about what a run costs.
 */
export function runCharges(
  usage: UsageCounter,
  pricing: Config["pricing"] = config.pricing,
  fees: Config["builtinTools"]["fees"] = config.builtinTools.fees,
): RunCharges {
  const agentCost = Math.max(usage.minimumAgents, usage.agentCount) * pricing.perAgent;
  const imgCost = usage.images.size * pricing.perImage;
  const mcpCost = usage.mcpCalls * pricing.perMcpCall;
  const searchCost = usage.billedSearches * fees.auto_search;
  const tools = builtinToolFees(usage, fees);
  return {
    agentCost,
    imgCost,
    mcpCost,
    searchCost,
    tools,
    total: agentCost + imgCost + mcpCost + searchCost + tools.total,
  };
}

/**
 * Something a run is billed for besides its tokens and its agents' calls, counted before the work
 * it pays for. A charge made per use names the step it pays for (`forStep`, that step's key), so
 * a retried job knows it made it already.
 */
export type Charge =
  | { kind: "run_agent"; agent: string } // an agent run's own agent: billed whether or not it gets to call
  | { kind: "image"; image: string; agent: string }
  | { kind: "tool"; tool: BuiltinTool; agent: string }
  | { kind: "mcp_call"; tool: string; agent: string; forStep: string }
  | { kind: "search"; agent: string; forStep: string };

/** The charge's key in the ledger: the same on every attempt of the run's job. */
function ledgerKey(charge: Charge): string {
  switch (charge.kind) {
    case "run_agent":
      return "agent/run";
    case "image":
      // An image may be a data URL of megabytes: its key is a digest.
      return `image/${createHash("sha256").update(charge.image).digest("hex").slice(0, 32)}`;
    case "tool":
      return `tool/${charge.tool}`;
    case "mcp_call":
      return `mcp_call/${charge.forStep}`;
    case "search":
      return `search/${charge.forStep}`;
  }
}

/**
 * The key this attempt's charge takes: the charge's own, or, when an earlier attempt made it and
 * refunded it (an MCP call that failed, then a retry that makes it again), the next one free of
 * such a pair, so the new charge is not mistaken for the refunded one.
 */
function unrefundedKey(recorder: StepRecorder, key: string): string {
  let candidate = key;
  for (let n = 2; recorder.madeEarlier(candidate) && recorder.madeEarlier(`${candidate}/refund`); n++)
    candidate = `${key}~${n}`;
  return candidate;
}

/** The kind of ledger entry a charge is stored as. */
function ledgerKind(charge: Charge): ChargeKind {
  return charge.kind === "run_agent" ? "agent" : charge.kind;
}

/** Records a charge in the usage; returns how to take it back, or null when it was billed already. */
function record(usage: UsageCounter, charge: Charge): (() => void) | null {
  switch (charge.kind) {
    case "run_agent": {
      if (usage.minimumAgents >= 1) return null;
      usage.minimumAgents = 1;
      return () => void (usage.minimumAgents = 0);
    }
    case "image":
    case "tool": {
      const set = charge.kind === "image" ? usage.images : usage.builtinTools;
      const item = charge.kind === "image" ? charge.image : charge.tool;
      if (set.has(item)) return null;
      set.add(item);
      return () => void set.delete(item);
    }
    case "mcp_call":
      usage.mcpCalls++;
      return () => void usage.mcpCalls--;
    case "search":
      usage.billedSearches++;
      return () => void usage.billedSearches--;
  }
}

/** The charge as a BUDGET_EXCEEDED message names it. */
function describe(charge: Charge): string {
  if (charge.kind === "run_agent") return "the per-agent charge";
  if (charge.kind === "image") return "an image";
  if (charge.kind === "tool") return `the ${charge.tool} fee`;
  if (charge.kind === "mcp_call") return `an MCP call (${charge.tool})`;
  return "a search";
}

/** Makes a change to the usage; returns what it added to the bill (rounded as bills are) and how to take it back. */
function priced(usage: UsageCounter, change: () => (() => void) | null): { amount: number; undo: () => void } {
  const before = runCharges(usage).total;
  const undo = change() ?? (() => undefined);
  return { amount: roundCost(runCharges(usage).total - before), undo };
}

/** The per-agent charge a call by this agent would add to the bill (0 once the agent has made one). */
export function callerCharge(usage: UsageCounter, name: string, internal: boolean): number {
  const { amount, undo } = priced(usage, () => usage.addCaller(name, internal));
  undo();
  return amount;
}

/**
 * Counts an agent's call (finished or cut off) in the usage and, on the agent's first call, stores
 * its per-agent charge in the ledger; returns what that added to the bill, and whether an earlier
 * attempt of the job had stored it already (its pools counted it then).
 */
export function billCaller(
  ctx: Pick<AgentContext, "usage" | "recorder">,
  name: string,
  internal: boolean,
): { amount: number; replayed: boolean } {
  const { amount } = priced(ctx.usage, () => ctx.usage.addCaller(name, internal));
  if (amount === 0) return { amount, replayed: false };
  const key = `agent/${internal ? "internal" : "request"}:${name}`;
  return { amount, replayed: ctx.recorder.charge(key, "agent", name, amount).replayed };
}

/** An image or a tool is bought once per run: the key of its charge, or null for charges counted each time. */
function onceKey(charge: Charge): string | null {
  if (charge.kind === "image") return `image:${charge.image}`;
  if (charge.kind === "tool") return `tool:${charge.tool}`;
  return charge.kind === "run_agent" ? "run_agent" : null;
}

/** Per run, the bought-once charges whose budget verdict is still awaited. */
const pendingVerdicts = new WeakMap<UsageCounter, Map<string, Promise<void>>>();

/**
 * Incurs a charge before the work it pays for: records it in the run's usage (what the bill is
 * made from) and the ledger, and counts what that adds to the bill in the run's budget and the
 * pools it shares. When it does not fit, nothing is recorded and `BudgetExceededError` stops the
 * run. Returns a refund, for work that turned out not to be owed (a search the provider did not
 * answer), which the ledger records as a negative charge.
 *
 * A charge an earlier attempt of the job stored is counted in the run's budget and bill again but
 * not in the pools, which counted it then. An agent running beside another that is buying the
 * same image or tool waits for that verdict and shares it: it must not use what the first may yet
 * be refused.
 */
export async function incur(
  ctx: Pick<AgentContext, "budget" | "usage" | "recorder">,
  charge: Charge,
): Promise<() => void> {
  const key = onceKey(charge);
  let pending = pendingVerdicts.get(ctx.usage);
  const awaited = key ? pending?.get(key) : undefined;
  if (awaited) {
    await awaited;
    return () => undefined; // the first buyer holds the refund
  }
  const entry = unrefundedKey(ctx.recorder, ledgerKey(charge));
  const agent = charge.agent;
  if (ctx.recorder.madeEarlier(entry)) return replayedCharge(ctx, charge, entry);
  const { amount, undo: undoUsage } = priced(ctx.usage, () => record(ctx.usage, charge));
  // Taking a charge off the bill (a refund, or one the pools refused after all) is a ledger entry too.
  let undone = false;
  const undo = () => {
    if (undone) return;
    undone = true;
    undoUsage();
    if (amount > 0) ctx.recorder.charge(`${entry}/refund`, ledgerKind(charge), agent, -amount);
  };
  if (amount > 0) {
    // Every agent run has this one: the pools count it with the run's first call, not in a round trip of its own.
    const verdict = ctx.budget
      .addCharge(amount, describe(charge), { withNextCall: charge.kind === "run_agent", undo })
      .then(() => void ctx.recorder.charge(entry, ledgerKind(charge), agent, amount));
    if (key) {
      if (!pending) pendingVerdicts.set(ctx.usage, (pending = new Map()));
      const waiting = pending;
      waiting.set(key, verdict);
      const forget = () => void waiting.delete(key);
      verdict.then(forget, forget);
    }
    try {
      await verdict;
    } catch (err) {
      undoUsage(); // refused: never stored, so nothing to take off the ledger
      throw err;
    }
  }
  return () => {
    if (undone) return;
    undo();
    if (amount > 0) ctx.budget.refundCharge(amount);
  };
}

/**
 * A charge an earlier attempt stored (and its refund, if it stored one): back in the usage and the
 * run's budget as it was then, not in the pools or the ledger again.
 */
function replayedCharge(ctx: Pick<AgentContext, "budget" | "usage" | "recorder">, charge: Charge, entry: string) {
  const { amount, undo } = priced(ctx.usage, () => record(ctx.usage, charge));
  ctx.budget.addReplayedCharge(amount);
  return () => {
    undo();
    const refund = ctx.recorder.charge(`${entry}/refund`, ledgerKind(charge), charge.agent, -amount);
    // The pools counted the charge when it was made: they are credited now, unless the attempt
    // that refunded it did so then.
    if (refund.replayed) ctx.budget.addReplayedCharge(-amount);
    else ctx.budget.refundCharge(amount);
  };
}

/**
 * Stores the discount the run's bill takes off as its usage was last priced (`UsageCounter.discount`),
 * less what earlier executions of the run stored, under this execution's key (positive when a
 * retry finds less discount than an earlier attempt recorded), and applies it to the pools the run shares: the ledger and the shared ceilings then sum to the bill. (The run's
 * own `max_cost` counts list prices, as documented.) Call once its usage is priced for the last time.
 */
export function recordDiscount(ctx: Pick<AgentContext, "usage" | "recorder" | "budget">, execution: string): void {
  const amount = -ctx.usage.discount - ctx.recorder.chargedSoFar("discount");
  if (Math.abs(amount) < 1e-12) return;
  ctx.recorder.charge(`discount@${execution}`, "discount", null, amount);
  ctx.budget.adjustPools(amount);
}
