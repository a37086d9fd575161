/**
 * Chat-request fields the service sets itself (the model, the conversation, the tools, whether it
 * streams, the output cap and the service tier): `llm_args` may add provider options but never
 * these. The output cap is the run budget's (an `llm_args.max_completion_tokens` beside the
 * service's `max_tokens` would be honoured over it), and the tier is what the service pays. The API
 * refuses them in `llm_args`; the worker ignores them there.
 */
export const RESERVED_LLM_ARGS = [
  "model",
  "messages",
  "tools",
  "tool_choice",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "service_tier",
] as const;
