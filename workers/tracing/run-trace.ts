import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanContext,
  type Tracer,
} from "@opentelemetry/api";
import type { Run } from "../../shared/db/entities/run.entity";
import { storedBill } from "../../shared/queues/job-outcome";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import {
  ACCOUNT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  JOB_ID,
  RUN_ATTEMPT,
  RUN_COST,
  RUN_KIND,
  RUN_STATUS,
  STEP_COST,
  STEP_LATENCY_MS,
  STEP_ROLE,
  STEP_STATUS,
  SWARM_TYPE,
} from "../../shared/tracing/attributes";
import { activeTracer } from "../../shared/tracing/tracer";
import type { StepTrace } from "../agents/step-store";
import type { RunStep } from "../../shared/db/entities/run-step.entity";

/** What a run's row says it spent, whatever its kind (an agent's usage, a swarm's `billing_info`). */
function spentBy(row: Run): Record<string, number> {
  const usage = (row.usage ?? {}) as { input_tokens?: unknown; output_tokens?: unknown };
  const cost = storedBill(row.usage);
  const spent: Record<string, number> = {};
  if (typeof usage.input_tokens === "number") spent[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = usage.input_tokens;
  if (typeof usage.output_tokens === "number") spent[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = usage.output_tokens;
  if (typeof cost === "number") spent[RUN_COST] = cost;
  return spent;
}

/** A tool call's step names its tool as `tool:<name>` or `mcp:<name>`; an LLM call its model. */
const isToolCall = (call: RunStep) => call.role === "tool";

/**
 * The spans of one attempt of a run, when tracing is on: its wait in the queue, the run itself
 * (kind, job id, account id, status, cost, tokens) and a child per call it stores, all in the trace
 * of the request that queued it. Spans are made from what the run records, with the times it
 * records, so a span says what the steps endpoint says. Nothing here may fail a run: the tracer
 * only queues spans for a background export.
 */
export class RunTrace implements StepTrace {
  private ended: Run | null = null;

  private constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly context: Context,
  ) {}

  /**
   * The trace of a claimed run (null while tracing is off). `from`: the request span that queued
   * it, when its job carried a valid one. A first attempt also gets its wait in the queue.
   */
  static start(run: Run, from: SpanContext | null): RunTrace | null {
    const tracer = activeTracer();
    if (!tracer) return null;
    const parent = from ? trace.setSpanContext(ROOT_CONTEXT, from) : ROOT_CONTEXT;
    const now = new Date();
    if (run.attempts === 1) {
      const wait = tracer.startSpan("queue wait", { kind: SpanKind.CONSUMER, startTime: run.queued_at }, parent);
      wait.setAttribute(JOB_ID, run.job_id);
      wait.end(now);
    }
    const span = tracer.startSpan(
      `run ${run.kind}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: now,
        attributes: {
          [RUN_KIND]: run.kind,
          [JOB_ID]: run.job_id,
          [RUN_ATTEMPT]: run.attempts,
          ...(run.user_id ? { [ACCOUNT_ID]: run.user_id } : {}),
          ...(run.kind === "swarm"
            ? { [SWARM_TYPE]: String((run.request as { swarm_type?: unknown }).swarm_type) }
            : {}),
        },
      },
      parent,
    );
    return new RunTrace(tracer, span, trace.setSpan(parent, span));
  }

  /** One stored call, as a child of the run with the call's own start and end. */
  stored(call: RunStep): void {
    const tool = isToolCall(call);
    const step = this.tracer.startSpan(
      tool ? `execute_tool ${call.model}` : `chat ${call.model}`,
      {
        kind: tool ? SpanKind.INTERNAL : SpanKind.CLIENT,
        startTime: call.started_at,
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: tool ? "execute_tool" : "chat",
          [ATTR_GEN_AI_AGENT_NAME]: call.agent_name,
          [tool ? ATTR_GEN_AI_TOOL_NAME : ATTR_GEN_AI_REQUEST_MODEL]: call.model,
          ...(call.provider ? { [ATTR_GEN_AI_PROVIDER_NAME]: call.provider } : {}),
          [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: call.input_tokens,
          [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: call.output_tokens,
          [STEP_ROLE]: call.role,
          [STEP_COST]: call.cost,
          [STEP_LATENCY_MS]: call.finished_at.getTime() - call.started_at.getTime(),
          [STEP_STATUS]: call.status,
        },
      },
      this.context,
    );
    if (call.status !== "finished") step.setStatus({ code: SpanStatusCode.ERROR, message: call.status });
    step.end(call.finished_at);
  }

  /** The run's final row (succeeded, failed, cancelled, wound down): its status and bill end the span. */
  endedWith(row: Run | null): void {
    if (row) this.ended = row;
  }

  /**
   * Ends the run's span. Without a final row this attempt did not end the run (handed back at a
   * shutdown, taken over by another delivery, or an infrastructure error BullMQ retries).
   */
  end(): void {
    const row = this.ended;
    if (row) {
      this.span.setAttributes({ [RUN_STATUS]: PUBLIC_STATUS[row.status], ...spentBy(row) });
      if (row.status === "failed") this.span.setStatus({ code: SpanStatusCode.ERROR, message: row.error?.code });
    } else {
      this.span.setAttribute(RUN_STATUS, "handed_back");
    }
    this.span.end();
  }
}
