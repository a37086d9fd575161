import { config, type Config } from "../../shared/config";
import { roundCost } from "../../shared/llm/pricing";
import type { BuiltinTool } from "../../shared/tools/builtin-tools";
import type { AgentContext, UsageCounter } from "./agent-context";
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

/** Something a run is billed for besides its tokens and its agents' calls, counted before the work it pays for. */
export type Charge =
  | { kind: "run_agent" } // an agent run's own agent: billed whether or not it gets to call
  | { kind: "image"; image: string }
  | { kind: "tool"; tool: BuiltinTool }
  | { kind: "mcp_call"; tool: string }
  | { kind: "search" };

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

/** Counts an agent's finished call in the usage; returns what that added to the bill (its first call's per-agent charge). */
export function recordCaller(usage: UsageCounter, name: string, internal: boolean): number {
  return priced(usage, () => usage.addCaller(name, internal)).amount;
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
 * made from) and counts what that adds to the bill in the run's budget and the pools it shares.
 * When it does not fit, nothing is recorded and `BudgetExceededError` stops the run. Returns a
 * refund, for work that turned out not to be owed (a search the provider did not answer).
 *
 * An agent running beside another that is buying the same image or tool waits for that verdict
 * and shares it: it must not use what the first may yet be refused.
 */
export async function incur(ctx: Pick<AgentContext, "budget" | "usage">, charge: Charge): Promise<() => void> {
  const key = onceKey(charge);
  let pending = pendingVerdicts.get(ctx.usage);
  const awaited = key ? pending?.get(key) : undefined;
  if (awaited) {
    await awaited;
    return () => undefined; // the first buyer holds the refund
  }
  const { amount, undo } = priced(ctx.usage, () => record(ctx.usage, charge));
  if (amount > 0) {
    // Every agent run has this one: the pools count it with the run's first call, not in a round trip of its own.
    const verdict = ctx.budget.addCharge(amount, describe(charge), {
      withNextCall: charge.kind === "run_agent",
      undo,
    });
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
      undo();
      throw err;
    }
  }
  return () => {
    undo();
    if (amount > 0) ctx.budget.refundCharge(amount);
  };
}
