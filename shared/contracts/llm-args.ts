/**
 * Chat-request fields the service sets itself (the model, the conversation, the tools and whether
 * it streams): `llm_args` may add provider options but never these. The API refuses them in
 * `llm_args`; the worker ignores them there.
 */
export const RESERVED_LLM_ARGS = ["model", "messages", "tools", "tool_choice", "stream", "stream_options"] as const;
