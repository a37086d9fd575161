import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import { DEFAULT_MAX_TOKENS } from "../../shared/contracts/agent-defaults";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { outputTokensFor } from "../../shared/llm/model-catalog";
import { tokenCosts } from "../../shared/llm/pricing";
import { countTokens, REPLY_PRIMING_TOKENS, TOKENS_PER_IMAGE, TOKENS_PER_MESSAGE } from "../../shared/llm/tokens";
import { callsOf, planSwarmCalls, type PlannedAgent } from "../../shared/swarms/call-plan";
import { assertSwarmRunnable, normaliseSwarmRequest } from "./swarm-request";

/**
 * Tokens a call's prompt may hold beyond the request's own text: the service's instructions (the
 * collaboration prompt, the roster, the team note, a job's instructions and decision schema) and
 * each earlier turn's label in a transcript: a generous allowance, which the runs of
 * `test/integration/swarm-estimate.test.ts` keep within.
 */
const SERVICE_TEXT_TOKENS = 4_096;
const LABEL_TOKENS_PER_EARLIER_CALL = 16;

/** A range in the answer: `max` null when the request does not bound it. */
interface Span {
  min: number;
  max: number | null;
}

/** One agent's part of the estimate. */
interface AgentEstimate {
  agent_name: string;
  job: string | null;
  model: string;
  calls: Span;
  input_tokens: Span;
  output_tokens: Span;
  cost: Span;
}

const add = (a: Span, b: Span): Span => ({
  min: a.min + b.min,
  max: a.max === null || b.max === null ? null : a.max + b.max,
});
const scale = (r: Span, n: number): Span => ({ min: r.min * n, max: r.max === null ? null : r.max * n });
const floor6 = (v: number) => Math.floor(v * 1e6) / 1e6;
const ceil6 = (v: number) => Math.ceil(v * 1e6 - 1e-6) / 1e6;

/** The model of a planned agent: its own, the type's field for its job, else the first agent's (or the default). */
function modelOf(agent: PlannedAgent, request: SwarmRequest): string {
  if (agent.spec?.model_name) return agent.spec.model_name;
  const fields: Record<string, string | null | undefined> = {
    Director: request.director_model_name,
    Chairman: request.chairman_model,
    Chair: request.council_judge_model_name,
    "Question Generator": request.heavy_swarm_question_agent_model_name,
    Synthesis: request.swarm_type === "HeavySwarm" ? request.heavy_swarm_worker_model_name : null,
    Worker: request.heavy_swarm_worker_model_name,
  };
  return (agent.job && fields[agent.job]) || request.agents?.[0]?.model_name || config.llm.defaultModel;
}

/** The most output tokens one call of a planned agent may ask for. */
function outputCap(agent: PlannedAgent, request: SwarmRequest, model: string): number {
  if (agent.job === "Director" && request.director_settings?.max_tokens) return request.director_settings.max_tokens;
  if (agent.spec) return agent.spec.max_tokens ?? DEFAULT_MAX_TOKENS;
  return outputTokensFor(model, DEFAULT_MAX_TOKENS);
}

/** The text of the conversation a swarm starts from (`messages`), as its calls read it. */
function messagesText(request: SwarmRequest): string {
  if (!Array.isArray(request.messages)) return request.messages ? JSON.stringify(request.messages) : "";
  return request.messages
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

/**
 * The tokens of the request's own text in one call of an agent, counted with the tokenizer: least
 * and most (over `tasks`). The least counts only what a request agent surely reads in each turn
 * (its system prompt and the task; a routed agent gets the router's sub-task instead, and an
 * internal agent reads the service's prompt and the others' answers): it is a floor, not a guess.
 */
function ownText(request: SwarmRequest, agent: PlannedAgent): { min: number; max: number } {
  const tasks = request.task?.trim() ? [request.task] : (request.tasks ?? [""]);
  const taskTokens = tasks.map((t) => countTokens(t));
  const framing = 2 * TOKENS_PER_MESSAGE + REPLY_PRIMING_TOKENS;
  const system = countTokens(agent.spec?.system_prompt ?? "");
  const readsTask = agent.job === null && request.swarm_type !== "MultiAgentRouter";
  return {
    min: framing + (agent.spec ? system : 0) + (readsTask ? Math.min(...taskTokens) : 0),
    max:
      framing +
      system +
      Math.max(...taskTokens) +
      countTokens(request.rules ?? "") +
      countTokens(request.description ?? "") +
      countTokens(messagesText(request)) +
      (request.img ? TOKENS_PER_IMAGE : 0),
  };
}

/**
 * `POST /v1/swarm/estimate`: what a swarm request would make and cost, without running it or
 * calling a model. The request is normalised and checked as `POST /v1/swarm/completions` checks it
 * (the same 400s); then each agent's calls come from the type's definition (`planSwarmCalls`), its
 * tokens from the tokenizer's count of the request's text and the agents' `max_tokens`, and its cost
 * from the price table with the per-agent charge, plus the run's image and search fees.
 */
export function estimateSwarm(body: SwarmRequest, owner: KeyOwner) {
  const request = normaliseSwarmRequest(body, owner);
  assertSwarmRunnable(request);
  const plan = planSwarmCalls(request);
  const pricing = config.pricing;
  const why = [...plan.why];

  const planned = plan.agents.map((agent) => {
    const { calls, why: turnWhy } = callsOf(agent);
    if (turnWhy) why.push(turnWhy);
    const model = modelOf(agent, request);
    return { agent, model, calls: scale(calls, plan.runs), cap: outputCap(agent, request, model) };
  });
  // The most output the whole run can produce: any call's prompt may hold all of it (a transcript).
  const allOutput = planned.reduce<Span>((sum, p) => add(sum, scale(p.calls, p.cap)), { min: 0, max: 0 }).max;
  const allCalls = planned.reduce<Span>((sum, p) => add(sum, p.calls), { min: 0, max: 0 }).max;

  // Night discounts depend on when the run ends; the least cost assumes it ends at night.
  const leastFactor = (1 - pricing.nightDiscount) * (request.service_tier === "flex" ? 1 - pricing.flexDiscount : 1);
  const agents: AgentEstimate[] = planned.map(({ agent, model, calls, cap }) => {
    const text = ownText(request, agent);
    const perCallMax =
      allOutput === null || allCalls === null
        ? null
        : text.max + SERVICE_TEXT_TOKENS + allOutput + allCalls * LABEL_TOKENS_PER_EARLIER_CALL;
    const input: Span = {
      min: calls.min * text.min,
      max: calls.max === null || perCallMax === null ? null : calls.max * perCallMax,
    };
    const output: Span = { min: calls.min, max: calls.max === null ? null : calls.max * cap };
    const least = tokenCosts(input.min, output.min, pricing);
    const most = input.max === null || output.max === null ? null : tokenCosts(input.max, output.max, pricing);
    const mcp = Boolean(agent.spec?.mcp_url || agent.spec?.mcp_config || agent.spec?.mcp_configs?.connections?.length);
    if (mcp)
      why.push(`${agent.name}: each MCP tool call adds PRICE_PER_MCP_CALL, and the model decides how many it makes`);
    return {
      agent_name: agent.name,
      job: agent.job,
      model,
      calls,
      input_tokens: input,
      output_tokens: output,
      cost: {
        min: floor6((least.inputCost + least.outputCost) * leastFactor + (calls.min > 0 ? pricing.perAgent : 0)),
        max: most === null || mcp ? null : ceil6(most.inputCost + most.outputCost + (calls.max ? pricing.perAgent : 0)),
      },
    };
  });

  const charges: { kind: "image" | "search"; cost: number }[] = [];
  if (request.img) charges.push({ kind: "image", cost: pricing.perImage });
  if (request.swarm_type === "DeepResearchSwarm" && config.builtinTools.search.url) {
    charges.push({ kind: "search", cost: config.builtinTools.fees.auto_search });
  }
  const chargeTotal = charges.reduce((sum, c) => sum + c.cost, 0);
  const sum = (pick: (a: AgentEstimate) => Span) => agents.reduce<Span>((s, a) => add(s, pick(a)), { min: 0, max: 0 });
  const cost = sum((a) => a.cost);
  return {
    swarm_type: request.swarm_type,
    runs: plan.runs,
    exact_calls: agents.every((a) => a.calls.min === a.calls.max),
    agents,
    charges,
    totals: {
      calls: sum((a) => a.calls),
      input_tokens: sum((a) => a.input_tokens),
      output_tokens: sum((a) => a.output_tokens),
      cost: { min: floor6(cost.min + chargeTotal), max: cost.max === null ? null : ceil6(cost.max + chargeTotal) },
    },
    why: [...new Set(why)],
  };
}
