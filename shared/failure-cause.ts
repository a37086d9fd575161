import { AppError } from "./errors";
import { LlmCallError } from "./llm/llm-error";

/**
 * Whose fault a failure is, for logs and metrics, so that an operator's error alert means "ours":
 * `caller` when the request made it fail (arguments a provider refused, the caller's own MCP server
 * or image URL, the run's own budget, a wait that ran out, a client that left), `service` otherwise
 * (our code, Postgres, Redis, a provider that is down or refuses our credentials).
 */
export type FailureCause = "caller" | "service";

/**
 * The classification of an answer on the web: a 500 reporting a run that failed is `run`, since
 * the web process does not know whose fault the run's failure was; the worker that ran it counts
 * that (`apiary_runs_total{outcome="failed", cause}`), so each failure is judged once, where it is known.
 */
export type AnswerCause = FailureCause | "run";

/** An error that knows whose fault it is declares it (an error class of a part `shared/` cannot import). */
export interface AttributedFailure {
  readonly failureCause: FailureCause;
}

/**
 * Provider statuses that refuse the request as the caller shaped it: bad arguments (400), a model
 * the provider does not have (404), too large (413), unprocessable (422). A 401/403 refuses our
 * credentials and a 429 or 5xx is the provider's capacity: the service's.
 */
const CALLER_PROVIDER_STATUSES = new Set([400, 404, 413, 422]);

/** How deep a chain of `cause`s is followed (a swarm's failed turn wraps its agent's error). */
const MAX_DEPTH = 5;

function attributed(err: unknown): err is AttributedFailure {
  const cause = (err as Partial<AttributedFailure> | null)?.failureCause;
  return cause === "caller" || cause === "service";
}

/** Whose fault `err` is: the first error of its `cause` chain that can tell; the service's when none can. */
export function failureCauseOf(err: unknown): FailureCause {
  for (let e = err, depth = 0; e instanceof Error && depth < MAX_DEPTH; e = e.cause, depth++) {
    if (attributed(e)) return e.failureCause;
    if (e instanceof LlmCallError)
      return e.status !== null && CALLER_PROVIDER_STATUSES.has(e.status) ? "caller" : "service";
    // A 4xx is the request's own doing; a 500 wrapping another error lets the wrapped one tell.
    if (e instanceof AppError && e.status < 500) return "caller";
  }
  return "service";
}

/** Codes of a 5xx answer that the caller caused: its wait ran out while the run goes on. */
const CALLER_5XX_CODES = new Set(["RUN_TIMEOUT"]);

/**
 * Whose fault an error answer (4xx or 5xx) is: a 4xx (a client that left mid-request is one, 400)
 * or a wait that ran out are the caller's; a 500 reporting a failed run (it names the run's
 * `job_id`) is `run`; any other 5xx the service's, even when the client had gone by then (a proxy
 * closing on a stalled Postgres must not hide the stall).
 */
export function answerCauseOf(answer: { status: number; code?: string; reportsRun?: boolean }): AnswerCause {
  if (answer.status < 500 || (answer.code && CALLER_5XX_CODES.has(answer.code))) return "caller";
  return answer.reportsRun ? "run" : "service";
}
