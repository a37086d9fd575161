import Joi from "joi";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { AppError } from "../../shared/errors";
import type { Logger } from "../../shared/logger";
import { asServiceUnavailable } from "../../shared/unavailable";
import type { ApiDeps } from "../deps";
import type { ErrorRenderer } from "../http/errors";
import { validV1Body } from "../http/validate";
import type { Outcome } from "../reply";
import { swarmTypesAnswer } from "../routes/v1/swarm/swarm.router";
import { completeAgent } from "../runs/agent-completion";
import { readJob } from "../runs/jobs";
import { completeSwarm } from "../runs/swarm-completion";
import { agentCompletionSchema } from "../schemas/agent-request.schema";
import { swarmRequestSchema } from "../schemas/swarm-request.schema";
import { toolInputSchema } from "./mcp-tool-schemas";

/** Who calls a tool, and how its errors read: the key's owner and the `/v1` error bodies. */
export interface ToolCaller {
  owner: KeyOwner;
  errors: ErrorRenderer;
  log: Logger;
}

const getJobSchema = Joi.object({
  job_id: Joi.string().required().description("The `job_id` a run was answered with"),
});
const noArguments = Joi.object({});

/**
 * A run tool waits as the synchronous endpoint does (up to `SYNC_WAIT_MS`) and never streams: a
 * tool result is one JSON answer, whatever `stream` or `streaming_on` the body asks.
 */
const WAIT_AS_SYNC_ENDPOINT = { respondAsync: false, waitMs: null };

/** Apiary's MCP tools, each the mirror of one `/v1` endpoint. */
export const MCP_TOOLS: Tool[] = [
  {
    name: "run_agent",
    title: "Run one agent",
    description:
      "Runs one agent, as POST /v1/agent/completions does (same body, billing and limits), and answers its response. A run still going after the server's wait answers its job_id: read it with get_job.",
    inputSchema: toolInputSchema(agentCompletionSchema),
  },
  {
    name: "run_swarm",
    title: "Run a swarm",
    description:
      "Runs a swarm of agents, as POST /v1/swarm/completions does (same body, billing and limits), and answers its response. A run still going after the server's wait answers its job_id: read it with get_job.",
    inputSchema: toolInputSchema(swarmRequestSchema),
  },
  {
    name: "get_job",
    title: "Read a run",
    description:
      "A run of your account, as GET /v1/jobs/{job_id} answers it: the stored response once it succeeded, else its status (queued, running, failed, cancelled) and progress.",
    inputSchema: toolInputSchema(getJobSchema),
    annotations: { readOnlyHint: true },
  },
  {
    name: "list_swarm_types",
    title: "List swarm types",
    description:
      "The swarm types this deployment runs (the values of run_swarm's swarm_type), as GET /v1/swarms/available.",
    inputSchema: toolInputSchema(noArguments),
    annotations: { readOnlyHint: true },
  },
];

/** A tool's answer: the endpoint's JSON body as text and as structured content. */
function answer(body: unknown, isError = false): CallToolResult {
  const structured = (typeof body === "object" && body !== null ? body : { value: body }) as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: structured, isError };
}

/**
 * A run's outcome as a tool result: the endpoint's answer; a run still going when the wait ended
 * (the endpoint's 504 `RUN_TIMEOUT`) is not a failure here but its `job_id`, to read with `get_job`.
 */
function runResult(outcome: Outcome): CallToolResult {
  if ("stream" in outcome) throw new Error("A run tool asked for a stream"); // stream is forced off above
  const body = outcome.body as Record<string, unknown>;
  if (outcome.status < 400) return answer(body);
  throw new AppError(outcome.status, String(body.code ?? "RUN_FAILED"), String(body.detail ?? ""), body);
}

/** The error's answer as the endpoint would give it; an error we did not make is logged and reads as a bare 500. */
function failure(err: unknown, caller: ToolCaller): CallToolResult {
  const ours = err instanceof AppError ? err : asServiceUnavailable(err);
  if (ours?.code === "RUN_TIMEOUT" && typeof ours.extra.job_id === "string") {
    const jobId = ours.extra.job_id;
    return answer({
      job_id: jobId,
      status: "running",
      detail: `The run is still going: read it with get_job ${jobId}`,
    });
  }
  if (ours) return answer(caller.errors.render(ours).body, true);
  caller.log.error({ err }, "MCP tool failed");
  return answer(caller.errors.render(new AppError(500, "INTERNAL_ERROR", caller.errors.internalMessage)).body, true);
}

/** Runs one tool for the caller; every error (a bad argument, a refused or failed run) is a tool error with the endpoint's body. */
export async function callTool(
  deps: ApiDeps,
  caller: ToolCaller,
  name: string,
  args: unknown,
): Promise<CallToolResult> {
  const { owner } = caller;
  try {
    switch (name) {
      case "run_agent": {
        const body = validV1Body<AgentCompletionRequest>(agentCompletionSchema, args ?? {});
        const request = { ...body, stream: false, agent_config: { ...body.agent_config, streaming_on: false } };
        return runResult(await completeAgent(deps, request, owner, WAIT_AS_SYNC_ENDPOINT));
      }
      case "run_swarm": {
        const body = validV1Body<SwarmRequest>(swarmRequestSchema, args ?? {});
        return runResult(await completeSwarm(deps, { ...body, stream: false }, owner, WAIT_AS_SYNC_ENDPOINT));
      }
      case "get_job": {
        const { job_id } = validV1Body<{ job_id: string }>(getJobSchema, args ?? {});
        return answer(await readJob(deps, job_id, owner.userId));
      }
      case "list_swarm_types":
        return answer(swarmTypesAnswer());
      default:
        throw new AppError(
          404,
          "NOT_FOUND",
          `No tool '${name}'; the tools are ${MCP_TOOLS.map((t) => t.name).join(", ")}`,
        );
    }
  } catch (err) {
    return failure(err, caller);
  }
}
