import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { ApiDeps } from "../deps";
import { publishAgentPrompts, type OnPublished } from "../marketplace/publishing/publish-agents";
import { attachMarketplacePrompts } from "../marketplace/run-prompts";
import { assertRequestEgress, type RequestUrl } from "./request-egress";
import type { RunAttempt } from "../spine/run-attempt";

/** What the route hands a run use case besides the request itself. */
export interface RunHooks {
  /** Told the ids of the prompts the request published (or found already published). */
  onPublished?: OnPublished;
  /** The rate-limit verdict, when it is still on its way: awaited before anything is written. */
  admission?: Promise<void>;
  /** Whether the request is another attempt of one that started a run, and who hears of its run. */
  attempt?: RunAttempt;
}

/** One request's agents, and what else it asks to connect to, with where they sit in the request. */
export interface RequestAgents {
  specs: AgentSpec[];
  images: RequestUrl[];
  /** Where agent `i` sits in the request (`agents[i]` when not given). */
  where?: (i: number) => string;
}

/**
 * A request's agents made ready to run, each step a 400 before anything is stored: MCP servers
 * and image URLs allowed by the egress policy, marketplace prompts in place, and the agents that
 * ask for it published (after the rate-limit verdict, if one is still on its way).
 */
export async function readyAgents(
  deps: ApiDeps,
  userId: string,
  agents: RequestAgents,
  hooks: RunHooks = {},
): Promise<AgentSpec[]> {
  await assertRequestEgress(agents.specs, agents.images, agents.where);
  const withPrompts = await attachMarketplacePrompts(deps.ds, agents.specs, userId);
  const published = await publishAgentPrompts(deps, userId, withPrompts, agents.where, hooks.admission);
  hooks.onPublished?.(published.promptIds);
  return published.specs;
}
