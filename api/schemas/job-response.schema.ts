import Joi from "joi";
import { agentOutcomesSchema } from "./run-outcome.schema";
import { RUN_KINDS } from "../../shared/runs/run-kind-catalog";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import { agentBatchResponseSchema, agentCompletionResponseSchema } from "./agent-response.schema";
import { dollars, runId, timestamp, tokenCount } from "./response-fields";
import { swarmBatchResponseSchema, swarmResponseSchema } from "./swarm-response.schema";
import { batchedGridWorkflowResponseSchema, graphWorkflowResponseSchema } from "./workflow-response.schema";
import { advancedResearchBatchResponseSchema, advancedResearchResponseSchema } from "./advanced-research.schema";
import { agentGenerateResponseSchema, autoSwarmBuilderResponseSchema } from "./builder-response.schema";
import { reasoningResponseSchema } from "./reasoning-response.schema";
import { webhookStateSchema } from "./webhook-response.schema";
import { jobAttemptsSchema } from "./job-attempts.schema";

/** 202 for `Prefer: respond-async` (or a batch that outlives the wait): where the result will be. */
export const acceptedRunSchema = Joi.object({
  job_id: runId.required(),
  status: Joi.valid("queued").required(),
  status_url: Joi.string().required().description("`/v1/jobs/{job_id}`, also in `Location`"),
}).id("AcceptedRun");

/** How far a queued or running agent or swarm run has got, from its stored steps. */
const jobProgressSchema = Joi.object({
  steps_done: Joi.number().integer().min(0).required().description("LLM and tool calls finished so far"),
  steps_total: Joi.number()
    .integer()
    .min(0)
    .allow(null)
    .required()
    .description(
      "The calls the run will make, when its request fixes them (a plain agent; SequentialWorkflow and ConcurrentWorkflow: each agent's `max_loops` × the swarm's loops); null when the model's choices decide (tools, handoffs, routers)",
    ),
  turns: Joi.array()
    .items(
      Joi.object({
        agent: Joi.string().required(),
        type: Joi.valid("llm", "tool").required(),
        model: Joi.string().required().description("The model, or `mcp:<tool>` for a tool call"),
        input_tokens: tokenCount.required(),
        output_tokens: tokenCount.required(),
        cost: dollars.required(),
        finished_at: timestamp.required(),
      }).id("JobTurn"),
    )
    .required()
    .description("The calls finished so far, in the order they finished"),
}).id("JobProgress");

/** A run that has not succeeded (yet): its state and timings, and its error once it failed. */
const jobStateSchema = Joi.object({
  job_id: runId.required(),
  status: Joi.valid(...Object.values(PUBLIC_STATUS)).required(),
  kind: Joi.valid(...RUN_KINDS).required(),
  queued_at: timestamp.required(),
  started_at: timestamp.allow(null).required(),
  finished_at: timestamp.allow(null).required(),
  detail: Joi.string().description("Why the run failed or was cancelled"),
  code: Joi.string().description("The failure's code, the one its answer gave"),
  agent: Joi.string().description("The agent whose turn failed, when one did"),
  agents: agentOutcomesSchema.description(
    "A failed or cancelled run's agents: what finished, what failed, what never started",
  ),
  usage: Joi.any().description("What the run used before it ended"),
  pending_approval: Joi.object({
    since: timestamp.required().description("When the run parked"),
    tool_calls: Joi.array()
      .items(
        Joi.object({
          id: Joi.string().required().description("The call's id, what `approve` may name in `tool_call_ids`"),
          agent_name: Joi.string().required(),
          name: Joi.string().required().description("The tool"),
          arguments: Joi.string().required().description("The call's arguments as the model wrote them (JSON text)"),
        }).id("PendingToolCall"),
      )
      .required(),
  })
    .id("PendingApproval")
    .description("While the run is `awaiting_approval`: the tool calls it waits on (docs/approvals.md)"),
  progress: jobProgressSchema.description(
    "While an agent or swarm run is queued or running: the steps finished so far",
  ),
}).id("JobState");

const succeeded = { status: Joi.valid("success").required() };

/**
 * Each shape of the job read, with the run's webhook when it has one (see `webhookStateSchema`) and a
 * retried run's `attempts`. A
 * shape that is also an endpoint's answer (`…Response`) is named `…Job` here: the answer has no `webhook`.
 */
const withWebhook = (...shapes: Joi.ObjectSchema[]) =>
  Joi.alternatives(
    ...shapes.map((shape) => {
      const id = (shape.describe().flags as { id?: string } | undefined)?.id ?? "";
      return shape
        .keys({ webhook: webhookStateSchema, attempts: jobAttemptsSchema })
        .id(id.replace(/Response$/, "Job"));
    }),
  );

/** `GET /v1/jobs/{job_id}`: a succeeded run's stored response (with `status: success`), else its state. */
export const jobResponseSchema = withWebhook(
  swarmResponseSchema,
  agentCompletionResponseSchema
    .keys({ status: Joi.valid("success", "incomplete").required() })
    .id("AgentCompletionJob"),
  agentBatchResponseSchema.keys(succeeded).id("AgentBatchJob"),
  Joi.object({ job_id: runId.required(), results: swarmBatchResponseSchema.required(), ...succeeded }).id(
    "SwarmBatchJob",
  ),
  graphWorkflowResponseSchema,
  batchedGridWorkflowResponseSchema,
  reasoningResponseSchema,
  autoSwarmBuilderResponseSchema.keys(succeeded).id("AutoSwarmBuilderJob"),
  agentGenerateResponseSchema.keys(succeeded).id("AgentGenerateJob"),
  advancedResearchResponseSchema.keys(succeeded).id("AdvancedResearchJob"),
  Joi.object({ job_id: runId.required(), results: advancedResearchBatchResponseSchema.required(), ...succeeded }).id(
    "AdvancedResearchBatchJob",
  ),
  jobStateSchema,
);

/** `DELETE /v1/jobs/{job_id}`. */
export const cancelledJobSchema = Joi.object({
  job_id: runId.required(),
  status: Joi.valid("cancelled").required(),
}).id("CancelledJob");
