import { randomBytes } from "node:crypto";
import type OpenAI from "openai";
import type { ChatRunMessage } from "../../../shared/contracts/chat-run";
import type { ResponseSettings, ResponseTool } from "../../../shared/contracts/response-run";
import { BadRequestError } from "../../../shared/errors";
import { chatMessagesOf, inputItems, type GivenInputItem } from "./response-input";

/** `POST /v1/responses`, validated (`responseCreateSchema`). */
export interface ResponseCreateBody {
  model: string;
  input?: string | GivenInputItem[];
  instructions?: string | null;
  previous_response_id?: string | null;
  tools?:
    | (Omit<ResponseTool, "parameters" | "strict"> & {
        parameters?: ResponseTool["parameters"];
        strict?: boolean | null;
      })[]
    | null;
  tool_choice?: "none" | "auto" | "required" | { type: "function"; name: string } | null;
  parallel_tool_calls?: boolean | null;
  text?: { format?: OpenAI.Responses.ResponseFormatTextConfig; verbosity?: null | "medium" } | null;
  temperature?: number | null;
  top_p?: number | null;
  max_output_tokens?: number | null;
  reasoning?: { effort?: string | null } | null;
  metadata?: Record<string, string> | null;
  store?: boolean | null;
  background?: boolean | null;
  stream?: boolean | null;
  service_tier?: "auto" | "default" | "flex" | null;
  user?: string | null;
  safety_identifier?: string | null;
  prompt_cache_key?: string | null;
}

/** What a Responses request becomes: the chat call it makes (OpenAI's chat shape) and its Responses settings. */
export interface ResponseAsChat {
  chat: Record<string, unknown> & { model: string; messages: ChatRunMessage[]; stream: boolean };
  settings: ResponseSettings;
}

function refuse(message: string, param: string): never {
  throw new BadRequestError(message, { param }, "INVALID_REQUEST");
}

/** `text.format` as the chat call's `response_format` (none for plain text). */
function responseFormatOf(format: OpenAI.Responses.ResponseFormatTextConfig | undefined) {
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object") return { type: "json_object" };
  const { name, schema, description, strict } = format;
  const described = description === undefined ? {} : { description };
  return { type: "json_schema", json_schema: { name, schema, ...described, strict: strict ?? null } };
}

/** A function tool in the Responses shape (flat) as a chat tool (nested under `function`). */
function chatTool(tool: ResponseTool) {
  const { name, description, parameters, strict } = tool;
  const described = description ? { description } : {};
  return { type: "function", function: { name, ...described, parameters: parameters ?? {}, strict: strict ?? false } };
}

/** `tool_choice` in the chat shape: the modes as they are, a named function nested under `function`. */
function chatToolChoice(choice: ResponseCreateBody["tool_choice"]) {
  if (!choice || typeof choice === "string") return choice ?? undefined;
  return { type: "function", function: { name: choice.name } };
}

/** Drops the fields left unset, so the chat call carries only what the client asked for. */
const given = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null));

/**
 * Translates a Responses request into the chat call that answers it: `instructions` → a system
 * message first, then the conversation it continues (`earlier`, from `previous_response_id`), then
 * the input items (`chatMessagesOf`); function tools, `tool_choice`, `parallel_tool_calls`,
 * `text.format` (→ `response_format`), `max_output_tokens` (→ `max_completion_tokens`),
 * `reasoning.effort`, sampling and user ids as the chat call's. Refuses (400) `background` with
 * `store: false` (a background response is read back later), a `tool_choice` naming no declared
 * tool, and a request with nothing to answer.
 */
export function responseAsChat(body: ResponseCreateBody, earlier: ChatRunMessage[]): ResponseAsChat {
  const store = body.store ?? true;
  const background = body.background ?? false;
  if (background && !store) refuse("Background responses must be stored: store must not be false.", "background");
  const tools: ResponseTool[] = (body.tools ?? []).map((tool) => ({
    ...tool,
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? true,
  }));
  const choice = body.tool_choice;
  if (choice && typeof choice === "object" && !tools.some((tool) => tool.name === choice.name))
    refuse(`tool_choice names '${choice.name}', which is not among tools.`, "tool_choice.name");
  const input = inputItems(body.input, randomBytes(12).toString("hex"));
  const instructions = body.instructions ?? null;
  const messages: ChatRunMessage[] = [
    ...(instructions === null ? [] : [{ role: "system" as const, content: instructions }]),
    ...earlier,
    ...chatMessagesOf(input),
  ];
  // Worded and coded as a missing parameter is on every OpenAI path (docs/errors.md).
  if (input.length === 0)
    throw new BadRequestError("Missing required parameter: 'input'.", { param: "input" }, "MISSING_REQUIRED_PARAMETER");
  const format = body.text?.format;
  const chat = {
    model: body.model,
    messages,
    stream: Boolean(body.stream),
    ...given({
      tools: tools.length ? tools.map(chatTool) : undefined,
      tool_choice: chatToolChoice(choice),
      parallel_tool_calls: tools.length ? body.parallel_tool_calls : undefined,
      response_format: responseFormatOf(format),
      temperature: body.temperature,
      top_p: body.top_p,
      max_completion_tokens: body.max_output_tokens,
      reasoning_effort: body.reasoning?.effort,
      user: body.user || undefined,
      safety_identifier: body.safety_identifier || undefined,
    }),
  };
  const settings: ResponseSettings = {
    instructions,
    input,
    previous_response_id: body.previous_response_id ?? null,
    store,
    background,
    metadata: body.metadata ?? null,
    tools,
    tool_choice: (choice ?? "auto") as ResponseSettings["tool_choice"],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    text: { format: format ?? { type: "text" } },
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    reasoning_effort: body.reasoning?.effort ?? null,
    service_tier: body.service_tier ?? "auto",
    user: body.user ?? null,
    safety_identifier: body.safety_identifier ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
  };
  return { chat, settings };
}
