import type { Context } from "koa";
import { answerCauseOf, type AnswerCause } from "../../shared/failure-cause";
import type { RequestState } from "./state";

/**
 * Whose fault an error answer is (`shared/failure-cause.ts`), for its log line's level and the
 * `cause` label of `apiary_http_requests_total`; undefined for an answer that is no error.
 */
export function answerCause(ctx: Context & { state: Partial<RequestState> }): AnswerCause | undefined {
  if (ctx.status < 400) return undefined;
  return answerCauseOf({
    status: ctx.status,
    code: ctx.state.errorCode,
    reportsRun: ctx.state.errorReportsRun,
  });
}
