/*
 * The attribute names of Apiary's spans. Where the OpenTelemetry GenAI conventions name a fact
 * (`gen_ai.*`), that name is used; the facts they do not name are `apiary.*`, named as the steps
 * endpoint (`GET /v1/jobs/{job_id}/steps`) names them. No attribute ever holds a prompt, an
 * output, a key or a URL's query: only ids, names, numbers and statuses.
 */
export {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
} from "@opentelemetry/semantic-conventions/incubating";
export {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from "@opentelemetry/semantic-conventions";

/** The process a span comes from (a resource attribute): `web` or `worker-<queues>`. */
export const PROCESS_ROLE = "apiary.process.role";
/** The run's job id, as the API names it (`job_id`). */
export const JOB_ID = "apiary.job.id";
/** The run's kind (`agent`, `swarm`…), as `GET /v1/jobs` names it. */
export const RUN_KIND = "apiary.run.kind";
/** A swarm run's `swarm_type`. */
export const SWARM_TYPE = "apiary.swarm.type";
/** The account the run is for: its opaque id, never a name or an email. */
export const ACCOUNT_ID = "apiary.account.id";
/** How the run ended (`success`, `failed`, `cancelled`…, the job read's status). */
export const RUN_STATUS = "apiary.run.status";
/** Which attempt of the run this is (1, then 2… after a crash or an operator's retry). */
export const RUN_ATTEMPT = "apiary.run.attempt";
/** The run's bill in US dollars (its `total_cost`). */
export const RUN_COST = "apiary.run.cost";
/** A step's role (`worker`, `tool`, `director`…), as the steps endpoint's `role`. */
export const STEP_ROLE = "apiary.step.role";
/** A step's cost in US dollars, as the steps endpoint's `cost`. */
export const STEP_COST = "apiary.step.cost";
/** A step's duration in milliseconds, as the steps endpoint's `latency_ms`. */
export const STEP_LATENCY_MS = "apiary.step.latency_ms";
/** How a step ended (`finished`, `cut_off`, `interrupted`), as the steps endpoint's `status`. */
export const STEP_STATUS = "apiary.step.status";
