import type { KeyOwner } from "../../shared/auth/api-keys";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { AppError } from "../../shared/errors";
import type { ApiDeps } from "../deps";
import type { SwarmBatchItem, SwarmBatchParent } from "../../shared/contracts/batch";
import { batchSlots } from "./presenters/swarm-batch.presenter";
import { swarmRequestSchema } from "../schemas/swarm-request.schema";
import { validateRequest } from "../schemas/validate-request";
import { assertBatchSize, runBatch, syncWaitMs } from "./batch";
import { publishAgentPrompts, type OnPublished } from "../marketplace/publishing/publish-agents";
import {
  applyMarketplacePrompts,
  lookupMarketplacePrompts,
  type MarketplacePromptLookup,
} from "../marketplace/run-prompts";
import { withholdSwarmSecrets } from "../../shared/secrets/run-secrets";
import { assertRequestEgress, imageUrls } from "./request-egress";
import { acceptedReply, type Reply } from "../reply";
import { assertSwarmRunnable, normaliseSwarmRequest } from "./swarm-request";

type PreparedItem = { request: SwarmRequest } | { error: SwarmBatchItem };

/** The slot of an item refused for a reason the service can tell the client. */
function refusedItem(swarmName: string | null, err: unknown): { error: SwarmBatchItem } {
  if (err instanceof AppError) return { error: { status: "error", swarm_name: swarmName, detail: err.message } };
  throw err;
}

/** Validates one item: the runnable request, or the error that takes its slot. */
function prepareItem(raw: unknown, owner: KeyOwner): PreparedItem {
  const name = (raw as { name?: unknown } | null)?.name;
  const swarmName = typeof name === "string" ? name : null;
  const { value, error } = validateRequest(swarmRequestSchema, raw);
  if (error)
    return {
      error: {
        status: "error",
        swarm_name: swarmName,
        detail: error.details.map((d) => d.message.replace(/"/g, "'")).join("; "),
      },
    };
  try {
    const request = normaliseSwarmRequest(value as SwarmRequest, owner);
    assertSwarmRunnable(request);
    return { request: { ...request, stream: false } };
  } catch (err) {
    return refusedItem(swarmName, err);
  }
}

/** An item whose MCP servers or image URLs the egress policy refuses takes its slot as an error. */
async function withEgressChecked(item: PreparedItem): Promise<PreparedItem> {
  if (!("request" in item)) return item;
  try {
    await assertRequestEgress(item.request.agents ?? [], imageUrls(item.request));
    return item;
  } catch (err) {
    return refusedItem(item.request.name ?? null, err);
  }
}

/** Puts each runnable item's marketplace prompts in place; an item naming one it may not use takes its slot as an error. */
function withMarketplacePrompts(item: PreparedItem, lookup: MarketplacePromptLookup, owner: KeyOwner): PreparedItem {
  if (!("request" in item)) return item;
  try {
    return {
      request: { ...item.request, agents: applyMarketplacePrompts(item.request.agents ?? [], lookup, owner.userId) },
    };
  } catch (err) {
    return refusedItem(item.request.name ?? null, err);
  }
}

/** Publishes an item's agents that ask for it; an item whose agents cannot be published takes its slot. */
async function withPublishedAgents(
  item: PreparedItem,
  deps: ApiDeps,
  owner: KeyOwner,
  promptIds: string[],
): Promise<PreparedItem> {
  if (!("request" in item)) return item;
  try {
    const published = await publishAgentPrompts(deps, owner.userId, item.request.agents ?? []);
    promptIds.push(...published.promptIds);
    return { request: { ...item.request, agents: published.specs } };
  } catch (err) {
    return refusedItem(item.request.name ?? null, err);
  }
}

/**
 * E2: every valid item is a child swarm run, all in parallel across swarm workers; an invalid item
 * is answered in its slot without running. The answer keeps request order.
 */
export async function completeSwarmBatch(
  deps: ApiDeps,
  items: unknown[],
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
  onPublished: OnPublished = () => undefined,
): Promise<Reply> {
  assertBatchSize(items.length);
  const validated = await Promise.all(items.map((item) => withEgressChecked(prepareItem(item, owner))));
  // One lookup for the marketplace prompts of every item.
  const lookup = await lookupMarketplacePrompts(
    deps.ds,
    validated.flatMap((p) => ("request" in p ? (p.request.agents ?? []) : [])),
  );
  const promptIds: string[] = [];
  const prepared: PreparedItem[] = [];
  // One item after another, so items publishing the same prompt share one record.
  for (const item of validated)
    prepared.push(await withPublishedAgents(withMarketplacePrompts(item, lookup, owner), deps, owner, promptIds));
  onPublished([...new Set(promptIds)]);
  const runnable = prepared.flatMap((p) => ("request" in p ? [withholdSwarmSecrets(p.request)] : []));
  // Refused items are kept with the parent, so a later GET /v1/jobs shows every slot too.
  const rejected = prepared.flatMap((p, index) => ("error" in p ? [{ index, item: p.error }] : []));
  const parentRequest: SwarmBatchParent = { total_requests: items.length, rejected };
  if (runnable.length === 0) return { status: 200, body: batchSlots(parentRequest, []) };
  const { parentId, done } = await runBatch(
    deps,
    {
      parentKind: "swarm_batch",
      childKind: "swarm",
      parentJob: "swarm-batch",
      childJob: "swarm-run",
      owner,
      parentRequest,
      items: runnable,
    },
    syncWaitMs(prefer),
  );
  if (!done) return acceptedReply(parentId);
  return { status: 200, body: batchSlots(parentRequest, done.children) };
}
