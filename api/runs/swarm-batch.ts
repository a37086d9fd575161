import type { KeyOwner } from "../../shared/auth/api-keys";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { AppError, ValidationError } from "../../shared/errors";
import { withholdSwarmSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { publishAgentPrompts } from "../marketplace/publishing/publish-agents";
import { applyMarketplacePrompts, lookupMarketplacePrompts } from "../marketplace/run-prompts";
import type { Reply } from "../reply";
import { swarmRequestSchema } from "../schemas/swarm-request.schema";
import { validateRequest } from "../schemas/validate-request";
import { assertBatchSize, runBatch, type BatchKind } from "../spine/batch";
import type { SwarmBatchItem, SwarmBatchParent } from "../../shared/contracts/batch";
import { batchSlots } from "../../shared/runs/presenters/swarm-batch.presenter";
import type { RunHooks } from "./ready-agents";
import { assertRequestEgress, imageUrls } from "./request-egress";
import type { Prefer } from "../spine/prefer";
import { assertSwarmRunnable, normaliseSwarmRequest } from "./swarm-request";

const SWARM_BATCH: BatchKind<"swarm_batch"> = {
  parentKind: "swarm_batch",
  // Refused items are kept with the parent, so every slot is told from the stored batch.
  present: (parent, children) => batchSlots(parent.request, children),
};

type PreparedItem = { request: SwarmRequest } | { error: SwarmBatchItem };

/** The slot of an item refused for a reason the service can tell the client. */
function refusedItem(swarmName: string | null, err: unknown): { error: SwarmBatchItem } {
  if (err instanceof ValidationError)
    return { error: { status: "error", swarm_name: swarmName, detail: err.issues.map((i) => i.msg).join("; ") } };
  if (err instanceof AppError) return { error: { status: "error", swarm_name: swarmName, detail: err.message } };
  throw err;
}

/** Validates one item: the runnable request, or the error that takes its slot. */
function prepareItem(raw: unknown, owner: KeyOwner): PreparedItem {
  const name = (raw as { name?: unknown } | null)?.name;
  const swarmName = typeof name === "string" ? name : null;
  const { value, error } = validateRequest(swarmRequestSchema, raw);
  if (error) {
    const detail = error.details.map((d) => d.message.replace(/"/g, "'")).join("; ");
    return { error: { status: "error", swarm_name: swarmName, detail } };
  }
  try {
    const request = normaliseSwarmRequest(value as SwarmRequest, owner);
    assertSwarmRunnable(request);
    return { request: { ...request, stream: false } };
  } catch (err) {
    return refusedItem(swarmName, err);
  }
}

/** One step of a runnable item's preparation; an item the step refuses takes its slot as an error. */
async function step(item: PreparedItem, next: (request: SwarmRequest) => Promise<SwarmRequest>): Promise<PreparedItem> {
  if (!("request" in item)) return item;
  try {
    return { request: await next(item.request) };
  } catch (err) {
    return refusedItem(item.request.name ?? null, err);
  }
}

/**
 * `POST /v1/swarm/batch/completions`: every valid item is a child swarm run, all in parallel across swarm workers; an invalid item
 * (MCP servers or images the egress policy refuses, a marketplace prompt it may not use, agents
 * that cannot be published included) is answered in its slot without running. The answer keeps
 * request order.
 */
export async function completeSwarmBatch(
  deps: ApiDeps,
  items: unknown[],
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Reply> {
  assertBatchSize(items.length);
  return runBatch(deps, SWARM_BATCH, owner, prefer, hooks, async () => {
    const validated = await Promise.all(
      items.map((item) =>
        step(prepareItem(item, owner), async (request) => {
          await assertRequestEgress(request.agents ?? [], imageUrls(request));
          return request;
        }),
      ),
    );
    const prepared = await readySwarms(deps, owner, validated);
    hooks.onPublished?.(prepared.promptIds);
    const runnable = prepared.items.flatMap((p) => ("request" in p ? [withholdSwarmSecrets(p.request)] : []));
    // Refused items are kept with the parent, so a later GET /v1/jobs shows every slot too.
    const rejected = prepared.items.flatMap((p, index) => ("error" in p ? [{ index, item: p.error }] : []));
    const parentRequest: SwarmBatchParent = { total_requests: items.length, rejected };
    if (runnable.length === 0) return { status: 200, body: batchSlots(parentRequest, []) };
    return { parentRequest, items: runnable };
  });
}

/**
 * The valid items with their marketplace prompts in place and their agents published (one
 * marketplace lookup for all), one after another so that items publishing the same prompt share
 * one record; an item either step refuses takes its slot as an error.
 */
async function readySwarms(
  deps: ApiDeps,
  owner: KeyOwner,
  validated: PreparedItem[],
): Promise<{ items: PreparedItem[]; promptIds: string[] }> {
  const lookup = await lookupMarketplacePrompts(
    deps.ds,
    validated.flatMap((p) => ("request" in p ? (p.request.agents ?? []) : [])),
  );
  const promptIds: string[] = [];
  const prepared: PreparedItem[] = [];
  for (const item of validated) {
    prepared.push(
      await step(item, async (request) => {
        const agents = applyMarketplacePrompts(request.agents ?? [], lookup, owner.userId);
        const published = await publishAgentPrompts(deps, owner.userId, agents);
        promptIds.push(...published.promptIds);
        return { ...request, agents: published.specs };
      }),
    );
  }
  return { items: prepared, promptIds: [...new Set(promptIds)] };
}
