import Router from "@koa/router";
import type { SwarmRequest } from "../../../../shared/contracts/swarm-request";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { documentRoutes } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { estimateSwarm } from "../../../runs/swarm-estimate";
import { swarmEstimateResponseSchema } from "../../../schemas/swarm-estimate.schema";
import { swarmRequestSchema } from "../../../schemas/swarm-request.schema";

/** `POST /v1/swarm/estimate`: a swarm request's calls, tokens and cost, without running it. */
export function swarmEstimateRouter(): Router {
  const router = new Router<V1State>();
  router.post("/v1/swarm/estimate", validateBody<SwarmRequest>(swarmRequestSchema), (ctx) => {
    ctx.body = estimateSwarm(ctx.state.body, ctx.state.auth);
  });
  return documentRoutes(router, {
    method: "post",
    path: "/v1/swarm/estimate",
    summary: "Estimate a swarm's calls and cost",
    description:
      "Takes the body `POST /v1/swarm/completions` takes, checked the same way (the same 422s and 400s), and answers without any LLM call or run: per agent (internal agents included), the number of LLM calls and a range of input and output tokens and of cost, and the totals, from the swarm type's definition, `max_loops`, the agents' `max_tokens`, the tokenizer's count of the request's text and the price table, with the per-agent, image and search charges the bill would add. Where the model's answers decide the calls (routers, directors, planners, tools, `auto`), the ranges span them and `why` says so.",
    tags: ["Swarms"],
    access: "apiKey",
    request: {
      body: swarmRequestSchema,
      examples: {
        sequential: {
          summary: "Two agents in sequence",
          value: {
            swarm_type: "SequentialWorkflow",
            agents: [
              { agent_name: "Researcher", system_prompt: "List three facts.", model_name: "gpt-4.1", max_tokens: 512 },
              { agent_name: "Writer", system_prompt: "Write a brief.", model_name: "gpt-4.1", max_tokens: 512 },
            ],
            task: "Home batteries in 2025",
          },
        },
      },
    },
    responses: {
      200: { description: "The estimate", body: swarmEstimateResponseSchema },
      400: apiError("A rule of the whole request is broken (`INVALID_SWARM`, unknown model)"),
    },
  });
}
