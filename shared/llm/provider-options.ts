import { config, type Config } from "../config";
import { providerOfModel } from "./providers";

/**
 * The provider options a client may give (`llm_args`, `director_settings`, a chat completion's
 * sampling fields): an allow-list, since a gateway acts on options a provider never sees (a router
 * or model list with keys, a proxy, a mocked response, extra headers or query, endpoints under other
 * names). Anything not listed here is refused by the API and never forwarded by the workers. To let
 * a new option through, add its name here and its value's rule in `api/schemas/provider-options.schema.ts`.
 */

/**
 * What every provider's OpenAI-compatible chat-completions endpoint takes, as OpenAI documents it
 * (platform.openai.com/docs/api-reference/chat/create). The fields the service sets itself
 * (`RESERVED_LLM_ARGS`) are not options.
 */
const COMMON_OPTIONS = [
  "temperature",
  "top_p",
  "n",
  "presence_penalty",
  "frequency_penalty",
  "seed",
  "stop",
  "logit_bias",
  "logprobs",
  "top_logprobs",
  "user",
  "parallel_tool_calls",
  "reasoning_effort",
  "metadata",
  "response_format",
] as const;

/**
 * Sampling options a provider documents for its OpenAI-compatible endpoint beyond OpenAI's. Routing
 * preferences (OpenRouter's `provider`, `models`, `route`) are left out on purpose: where a call goes
 * is the operator's choice.
 */
const PROVIDER_EXTRAS = {
  // docs.vllm.ai, "OpenAI-Compatible Server", extra parameters of the Chat API.
  vllm: ["top_k", "min_p", "repetition_penalty"],
  // docs.together.ai/reference/chat-completions.
  together: ["top_k", "min_p", "repetition_penalty"],
  // openrouter.ai/docs/api-reference/parameters.
  openrouter: ["top_k", "min_p", "top_a", "repetition_penalty"],
  // lmstudio.ai/docs, "OpenAI Compatibility Endpoints", supported payload parameters.
  lmstudio: ["top_k", "repeat_penalty"],
  // docs.mistral.ai/api, chat completion.
  mistral: ["safe_prompt"],
} as const satisfies Record<string, readonly string[]>;

/** The bundled simulator's controls (scripts/llm-simulator/parse-request.ts): options only where it answers. */
const SIMULATOR_CONTROLS = [
  "sim_latency_ms",
  "sim_error",
  "sim_error_times",
  "sim_error_model",
  "sim_retry_after_ms",
  "sim_reply",
  "sim_tool_arguments",
] as const;

/** Every option name some deployment and model may take. */
export type ProviderOption =
  | (typeof COMMON_OPTIONS)[number]
  | (typeof PROVIDER_EXTRAS)[keyof typeof PROVIDER_EXTRAS][number]
  | (typeof SIMULATOR_CONTROLS)[number];

/**
 * The options a call of `modelName` may carry: the common set, the extras its provider documents
 * (the provider the name tells, a gateway in front or not: a gateway passes them on to that
 * provider), and the simulator's controls when the deployment says the simulator answers.
 */
export function allowedProviderOptions(modelName: string, cfg: Config = config): ReadonlySet<ProviderOption> {
  const provider = providerOfModel(modelName);
  const extras: readonly ProviderOption[] =
    provider && provider in PROVIDER_EXTRAS ? PROVIDER_EXTRAS[provider as keyof typeof PROVIDER_EXTRAS] : [];
  return new Set<ProviderOption>([...COMMON_OPTIONS, ...extras, ...(cfg.llm.simulator ? SIMULATOR_CONTROLS : [])]);
}

/** Whether `name` is the simulator's control (a `sim_*` option), for the refusal's wording. */
export function isSimulatorControl(name: string): boolean {
  return (SIMULATOR_CONTROLS as readonly string[]).includes(name);
}

/** The providers that document `name` beyond OpenAI's set, for the refusal's wording. */
export function providersTaking(name: string): string[] {
  return Object.entries(PROVIDER_EXTRAS).flatMap(([provider, names]) =>
    (names as readonly string[]).includes(name) ? [provider] : [],
  );
}

/** The options in `options` a call of `modelName` may carry; the others are dropped. */
export function allowedOptionsOf(
  options: Record<string, unknown> | null | undefined,
  modelName: string,
  cfg: Config = config,
): Record<string, unknown> {
  const allowed: ReadonlySet<string> = allowedProviderOptions(modelName, cfg);
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => allowed.has(key)));
}

/**
 * A chat run's own tool fields: the client's tools (it runs them itself) and which the model must
 * call. Reserved in `llm_args`, where the service sets them; a chat run passes the client's.
 */
const CHAT_RUN_TOOL_FIELDS = ["tools", "tool_choice"] as const;

/** What a chat run's call carries of the client's `options`: the allowed provider options and its tool fields. */
export function chatRunOptionsOf(
  options: Record<string, unknown>,
  modelName: string,
  cfg: Config = config,
): Record<string, unknown> {
  const tools = CHAT_RUN_TOOL_FIELDS.flatMap((field) => (options[field] == null ? [] : [[field, options[field]]]));
  return { ...allowedOptionsOf(options, modelName, cfg), ...Object.fromEntries(tools) };
}
