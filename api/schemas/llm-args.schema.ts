import Joi from "joi";
import { config } from "../../shared/config";
import { RESERVED_LLM_ARGS } from "../../shared/contracts/llm-args";
import { allowedProviderOptions, isSimulatorControl, providersTaking } from "../../shared/llm/provider-options";
import { providerOptionRules } from "./provider-options.schema";

/** The fields the service sets itself: refused, since `llm_args` could never change them. */
const reserved = Object.fromEntries(
  RESERVED_LLM_ARGS.map((field) => [
    field,
    Joi.any().forbidden().messages({
      "any.unknown": `{{#label}} is set by the service (the agent's model, its conversation and tools, streaming, its output cap (agent_config.max_tokens) and the service tier are chosen by the request's own fields and budget): it cannot be given in llm_args`,
    }),
  ]),
);

/** A model name, when `value` is one. */
const modelName = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() ? value : undefined;

/**
 * The model the options go with, read from the object that holds them: an agent's or reasoning
 * request's `model_name`, HierarchicalSwarm's director (its `director_model_name`, else the agents'
 * model), a chat completion's `model`; the default model when it names none.
 */
function modelOf(parent: unknown): string {
  const holder = (parent ?? {}) as Record<string, unknown>;
  const firstAgent = Array.isArray(holder.agents)
    ? (holder.agents[0] as Record<string, unknown> | undefined)
    : undefined;
  return (
    modelName(holder.model_name) ??
    modelName(holder.director_model_name) ??
    modelName(holder.model) ??
    modelName(firstAgent?.model_name) ??
    config.llm.defaultModel
  );
}

/**
 * Refuses (naming it) the first option in `value` on the catalog but not for `model`: another
 * provider's extra, or a simulator control where the simulator does not answer.
 */
export function refuseUnlistedOption(value: Record<string, unknown>, helpers: Joi.CustomHelpers, model: string) {
  const allowed: ReadonlySet<string> = allowedProviderOptions(model);
  const refused = Object.keys(value).find((key) => key in providerOptionRules && !allowed.has(key));
  if (!refused) return value;
  const at = { ...helpers.state, path: [...(helpers.state.path ?? []), refused] };
  if (isSimulatorControl(refused)) return helpers.error("options.simulator", {}, at);
  return helpers.error("options.provider", { model, providers: providersTaking(refused).join(", ") }, at);
}

/** The refusals of provider options, for every schema that takes them. */
export const providerOptionMessages = {
  "options.provider": "{{#label}} is taken only by models of {{#providers}}, not by '{{#model}}'",
  "options.simulator":
    "{{#label}} is a control of the bundled LLM simulator, which does not answer this deployment's calls (LLM_SIMULATOR)",
};

/**
 * An agent's `llm_args`: extra provider options: only those on the allow-list
 * (shared/llm/provider-options.ts) for the model they go with, each value checked. Any other key
 * is refused (422 naming it): a gateway would act on options no provider documents (a model list
 * with keys, a proxy, a mocked answer, extra headers or query, another endpoint).
 */
export const llmArgsSchema = Joi.object({ ...providerOptionRules, ...reserved })
  .unknown(false)
  .custom((value: Record<string, unknown>, helpers) =>
    refuseUnlistedOption(value, helpers, modelOf(helpers.state.ancestors?.[0])),
  )
  .messages({
    "object.unknown":
      "{{#label}} is not a provider option the service passes on: llm_args takes the options providers document for their chat completions (docs/api.md), never where a call goes, its keys, headers, proxies or a mocked answer",
    ...providerOptionMessages,
  })
  .allow(null);
