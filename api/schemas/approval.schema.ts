import Joi from "joi";
import { MAX_REJECTION_REASON } from "../../shared/approvals/approval-gates";
import { nonBlankString } from "./text.schema";

/** The most tool calls one decision may name (a model's round asks for far fewer). */
const MAX_NAMED_CALLS = 64;

/** `POST /v1/jobs/{job_id}/approve`: no body approves every pending call. */
export const approveRequestSchema = Joi.object({
  tool_call_ids: Joi.array()
    .items(Joi.string().max(200))
    .min(1)
    .max(MAX_NAMED_CALLS)
    .unique()
    .description(
      "The pending calls to approve (their `id` in the job read's `pending_approval`); the others are rejected. Absent: every pending call is approved",
    ),
})
  .example({ tool_call_ids: ["call_0d4ab6a1f3c2e9b87a615c02"] })
  .id("ApproveRequest");

/** `POST /v1/jobs/{job_id}/reject`. */
export const rejectRequestSchema = Joi.object({
  reason: nonBlankString()
    .max(MAX_REJECTION_REASON)
    .required()
    .description("Why: the model reads it as the result of every pending call"),
}).id("RejectRequest");

/** The answer to a decision: the run is queued to go on. */
export const decisionResponseSchema = Joi.object({
  job_id: Joi.string().required(),
  status: Joi.valid("queued").required(),
  tool_calls: Joi.array()
    .items(
      Joi.object({
        id: Joi.string().required(),
        name: Joi.string().required(),
        approved: Joi.boolean().required(),
      }).id("ToolCallDecision"),
    )
    .required()
    .description("What was decided for each pending call"),
}).id("ApprovalDecisionResponse");

/** The approve body, validated. */
export interface ApproveBody {
  tool_call_ids?: string[];
}

/** The reject body, validated. */
export interface RejectBody {
  reason: string;
}
