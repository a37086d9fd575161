import { DEFAULT_MAX_TOKENS } from "../../shared/contracts/agent-defaults";
import type { ChatRunMessage, ChatRunRequest } from "../../shared/contracts/chat-run";
import { BadRequestError } from "../../shared/errors";
import { MAX_CHAT_IMAGES, PASSED_CHAT_OPTIONS } from "../schemas/chat-completion.schema";
import type { RequestUrl } from "./request-egress";

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: string } };
type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/** One message of an OpenAI conversation, as the schema lets it through. */
interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  refusal?: string | null;
}

/** `POST /v1/chat/completions`, validated (`chatCompletionSchema`). */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null } | null;
  tools?: { function: { name: string } }[] | null;
  tool_choice?: string | { function: { name: string } } | null;
  [option: string]: unknown;
}

/** A chat request as the run it becomes, and where its image URLs sit in the chat request. */
export interface ChatAsRun {
  request: ChatRunRequest;
  imageUrls: RequestUrl[];
}

function refuse(message: string, param: string): never {
  throw new BadRequestError(message, { param }, "INVALID_REQUEST");
}

/** The image parts of a user message, each with where it sits (for the egress policy's refusals). */
function imagesOf(m: ChatMessage, i: number): RequestUrl[] {
  if (m.role !== "user" || !Array.isArray(m.content)) return [];
  return m.content.flatMap((p, j) =>
    p.type === "image_url" ? [{ url: p.image_url.url, field: `messages[${i}].content[${j}].image_url.url` }] : [],
  );
}

/** Content as the model is sent it: each part rebuilt from OpenAI's keys alone. */
function sentContent(content: ChatMessage["content"]): ChatMessage["content"] {
  if (!Array.isArray(content)) return content ?? null;
  return content.map((p) =>
    p.type === "text"
      ? { type: "text", text: p.text }
      : {
          type: "image_url",
          image_url: { url: p.image_url.url, ...(p.image_url.detail ? { detail: p.image_url.detail } : {}) },
        },
  );
}

/**
 * A message as the model is sent it: the fields OpenAI's message takes, nothing a client's copy of
 * an earlier answer carries besides (`annotations`, `audio`).
 */
function sentMessage(m: ChatMessage): ChatRunMessage {
  const kept: Record<string, unknown> = { role: m.role, content: sentContent(m.content) };
  if (m.name !== undefined) kept.name = m.name;
  if (m.tool_calls?.length) kept.tool_calls = m.tool_calls;
  if (m.tool_call_id !== undefined) kept.tool_call_id = m.tool_call_id;
  if (m.refusal) kept.refusal = m.refusal;
  return kept as unknown as ChatRunMessage;
}

/**
 * Refuses what every provider refuses after the run would be stored: a `tool` message that answers
 * no tool call of an earlier assistant turn, and a `tool_choice` without tools or naming a function
 * not among them.
 */
function assertToolsConsistent(body: ChatCompletionRequest): void {
  const called = new Set<string>();
  /** The calls of the last assistant turn not answered yet. */
  let open = new Map<string, number>();
  const assertAnswered = (before: number) => {
    for (const [id, at] of open)
      refuse(
        `Invalid 'messages[${at}].tool_calls': an assistant message with 'tool_calls' must be followed by a 'tool' message answering each call ('${id}' is not answered before messages[${before}]).`,
        `messages[${at}].tool_calls`,
      );
  };
  body.messages.forEach((m, i) => {
    if (m.role !== "tool") assertAnswered(i);
    if (m.role === "assistant") {
      open = new Map((m.tool_calls ?? []).map((c) => [c.id, i]));
      for (const call of m.tool_calls ?? []) called.add(call.id);
      if (m.content == null && !m.tool_calls?.length)
        refuse(
          `Invalid 'messages[${i}].content': an assistant message needs content unless it has 'tool_calls'.`,
          `messages[${i}].content`,
        );
    }
    if (m.role === "tool") {
      if (!called.has(m.tool_call_id!))
        refuse(
          `Invalid 'messages[${i}].tool_call_id': a 'tool' message must answer a tool call of an earlier assistant message ('${m.tool_call_id}' is none).`,
          `messages[${i}].tool_call_id`,
        );
      open.delete(m.tool_call_id!);
    }
  });
  assertAnswered(body.messages.length);
  const names = (body.tools ?? []).map((t) => t.function.name);
  if (body.parallel_tool_calls != null && !names.length)
    refuse(
      "Invalid value for 'parallel_tool_calls': it is only allowed when 'tools' are specified.",
      "parallel_tool_calls",
    );
  const choice = body.tool_choice;
  if (choice == null) return;
  if (!names.length)
    refuse("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", "tool_choice");
  if (typeof choice === "object" && !names.includes(choice.function.name))
    refuse(`Invalid value for 'tool_choice': function '${choice.function.name}' is not in 'tools'.`, "tool_choice");
}

/**
 * Translates an OpenAI chat request into the chat run that answers it: the conversation as the
 * client wrote it (tool calls and their results included), the options passed to the model (the
 * allow-list's, the client's tools), the output cap per answer. Refuses (400) more images than a
 * run takes and tool messages or a tool choice no provider would take.
 */
export function chatRunOf(body: ChatCompletionRequest): ChatAsRun {
  const images = body.messages.flatMap(imagesOf);
  if (images.length > MAX_CHAT_IMAGES) refuse(`At most ${MAX_CHAT_IMAGES} images per request.`, "messages");
  assertToolsConsistent(body);
  const options = Object.fromEntries(
    PASSED_CHAT_OPTIONS.flatMap((option) => (body[option] == null ? [] : [[option, body[option]]])),
  );
  const request: ChatRunRequest = {
    model: body.model,
    messages: body.messages.map(sentMessage),
    options,
    max_tokens: body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_MAX_TOKENS,
    stream: Boolean(body.stream),
  };
  const imageUrls = images.filter((image) => /^https?:/i.test(image.url.trim()));
  return { request, imageUrls };
}
