import type Router from "@koa/router";
import type { Context } from "koa";
import { config } from "../../../shared/config";
import type { ApiDeps } from "../../deps";
import { parsePrefer } from "../../http/prefer-header";
import type { Admission, RateLimiter } from "../../limits/rate-limiter";
import { RUN_PATHS } from "../../../shared/runs/run-kind-catalog";
import {
  ADVANCED_RESEARCH_BATCH_PATH,
  advancedResearchRouter,
  researchBatchItems,
} from "./advanced-research/advanced-research.router";
import { agentBatchRouter } from "./agent/agent-batch.router";
import { AGENT_COMPLETIONS_PATH, agentRouter } from "./agent/agent.router";
import { agentsListRouter } from "./agent/agents-list.router";
import { builderRouter } from "./builder/builder.router";
import { isJobEventsPath, isJobRetryPath, jobsRouter } from "./jobs/jobs.router";
import { logsRouter } from "./logs/logs.router";
import { marketplaceRouter } from "./marketplace/marketplace.router";
import { modelsRouter } from "./meta/models.router";
import { chatRouter } from "./openai/chat.router";
import { CHAT_COMPLETIONS_PATH, RESPONSES_PATH } from "./openai/openai-paths";
import { embeddingsRouter } from "./openai/embeddings.router";
import { openAiModelsRouter } from "./openai/openai-models.router";
import { responsesRouter, streamsResponse } from "./openai/responses.router";
import { rateLimitsRouter } from "./meta/rate-limits.router";
import { reasoningRouter } from "./reasoning/reasoning.router";
import { SWARM_COMPLETIONS_PATH, swarmRouter } from "./swarm/swarm.router";
import { swarmEstimateRouter } from "./swarm/swarm-estimate.router";
import { metricsSummaryRouter } from "./usage/metrics-summary.router";
import { usageReportRouter } from "./usage/usage-report.router";
import { toolsRouter } from "./tools/tools.router";
import { usageRouter } from "./usage/usage.router";
import { webhooksRouter } from "./webhooks/webhooks.router";
import { workflowsRouter } from "./workflows/workflows.router";

/** Every `/v1` router, in mount order; all sit behind the API key, the rate limits and the JSON body parser. */
export function v1Routers(deps: ApiDeps, limiter: RateLimiter): Router[] {
  return [
    agentRouter(deps),
    agentBatchRouter(deps),
    swarmRouter(deps),
    swarmEstimateRouter(),
    jobsRouter(deps),
    rateLimitsRouter(limiter),
    modelsRouter(),
    openAiModelsRouter(), // after modelsRouter: `/v1/models/available` is not a model id
    chatRouter(deps),
    responsesRouter(deps),
    embeddingsRouter(deps),
    logsRouter(deps),
    marketplaceRouter(deps),
    usageRouter(deps),
    webhooksRouter(deps),
    usageReportRouter(deps),
    metricsSummaryRouter(deps),
    agentsListRouter(deps),
    builderRouter(deps),
    workflowsRouter(deps),
    reasoningRouter(deps),
    toolsRouter(),
    advancedResearchRouter(deps),
  ];
}

const RUN_SPINE_PATHS = new Set([
  AGENT_COMPLETIONS_PATH,
  SWARM_COMPLETIONS_PATH,
  CHAT_COMPLETIONS_PATH,
  RESPONSES_PATH,
]);

/**
 * Agent and swarm completions take their rate-limit verdict late: their services await it alongside the run's insert
 * (and before publishing anything), so the limiter's round trip to Redis is off the request's
 * critical path. A request with an `Idempotency-Key` waits for it first like every other request,
 * because its idempotency record is written before the route runs.
 */
export function defersRateLimitVerdict(ctx: Context): boolean {
  return ctx.method === "POST" && RUN_SPINE_PATHS.has(ctx.path) && !ctx.get("idempotency-key");
}

/** A path as the router matches it: without regard to case or a trailing slash. */
const routedPath = (ctx: Context) => ctx.path.toLowerCase().replace(/\/$/, "");

/**
 * Whether a `/v1` request holds its connection open until its run ends: a run request that streams
 * or waits, which is every POST that starts runs unless it asks `Prefer: respond-async` (then it
 * is answered 202 at once, even with `stream: true`), and a stream of a run's events (a job's, or
 * a response's read with `stream=true`). Told from
 * the path and headers, so before the body is read.
 */
export function holdsOpen(ctx: Context): boolean {
  if (ctx.method === "GET") return isJobEventsPath(routedPath(ctx)) || streamsResponse(routedPath(ctx), ctx.query);
  return ctx.method === "POST" && RUN_PATHS.has(routedPath(ctx)) && !parsePrefer(ctx.get("prefer")).respondAsync;
}

/** The items of a batch whose body is an object holding them (the advanced research batch's `input_schemas`). */
function wrappedItems(path: string, body: unknown): unknown {
  return path === ADVANCED_RESEARCH_BATCH_PATH ? researchBatchItems(body) : undefined;
}

/**
 * What a `/v1` request costs against the rate limits. A JSON array body counts one point per item
 * (a batch of N items is N requests), whatever the path, so no spelling of a batch path can make
 * it count as one; an array over `MAX_BATCH_SIZE` counts one, as it is refused before anything
 * runs. A POST to a path that starts runs (a run's retry included) is also refused once the
 * account's daily spend is used up. The router ignores case and a trailing slash, so the path is compared the same way.
 */
export function admissionOf(ctx: Context): Admission {
  const path = routedPath(ctx);
  const body = wrappedItems(path, ctx.request.body) ?? ctx.request.body;
  const points = Array.isArray(body) && body.length <= config.maxBatchSize ? Math.max(1, body.length) : 1;
  return { points, startsRuns: ctx.method === "POST" && (RUN_PATHS.has(path) || isJobRetryPath(path)) };
}
