import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from "../../shared/contracts/agent-defaults";
import type { AgentCompletionRequest, HistoryMessage } from "../../shared/contracts/agent-spec";
import { BadRequestError } from "../../shared/errors";
import { agentCompletionSchema } from "../schemas/agent-request.schema";
import { MAX_CHAT_IMAGES, PASSED_CHAT_OPTIONS } from "../schemas/chat-completion.schema";
import { validateRequest } from "../schemas/validate-request";
import type { RequestUrl } from "./request-egress";

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

/** One message of an OpenAI conversation, as the schema lets it through. */
interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant";
  content?: string | ContentPart[] | null;
}

/** `POST /v1/chat/completions`, validated (`chatCompletionSchema`). */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  max_loops?: number | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null } | null;
  [option: string]: unknown;
}

/** What the hosted API answers with when a conversation gives no system message. */
const DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant.";

/** A chat request as the agent run it becomes, and where its image URLs sit in the chat request. */
export interface ChatAsAgent {
  request: AgentCompletionRequest;
  imageUrls: RequestUrl[];
}

const textOf = (m: ChatMessage): string =>
  typeof m.content === "string"
    ? m.content
    : (m.content ?? []).flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");

function refuse(message: string, param: string): never {
  throw new BadRequestError(message, { param }, "INVALID_REQUEST");
}

/** The image parts of a user message, each with where it sits (for the egress policy's refusals). */
function imagesOf(m: ChatMessage, i: number): { url: string; field: string }[] {
  if (!Array.isArray(m.content)) return [];
  return m.content.flatMap((p, j) =>
    p.type === "image_url" ? [{ url: p.image_url.url, field: `messages[${i}].content[${j}].image_url.url` }] : [],
  );
}

/** Earlier turns as `history`: text only; an earlier image goes with the task (agents take images there). */
function historyOf(messages: ChatMessage[]): HistoryMessage[] {
  return messages.flatMap((m) => {
    const text = textOf(m);
    if (text.trim()) return [{ role: m.role, content: text }];
    const images = imagesOf(m, 0).length;
    return images ? [{ role: m.role, content: `[${images} image(s), attached to the last message]` }] : [];
  });
}

/**
 * Translates an OpenAI chat request into the agent run that answers it: system (and developer)
 * messages → the system prompt, earlier user and assistant turns → `history`, the last user
 * message → the task, every image part (user messages only) → `imgs`, the sampling options →
 * the agent's settings and `llm_args`. Refuses (400) a conversation with no user message, one
 * that does not end with it, and a last user message with no text.
 */
export function chatAsAgent(body: ChatCompletionRequest): ChatAsAgent {
  const { messages } = body;
  const last = messages.findLastIndex((m) => m.role === "user");
  if (last < 0) refuse("At least one message with role 'user' is required.", "messages");
  if (last !== messages.length - 1)
    refuse("The last message must be the user's: it is the task the agent answers.", `messages[${last + 1}]`);
  const task = textOf(messages[last]);
  if (!task.trim())
    refuse("The last user message must have text: it is the task the agent answers.", `messages[${last}].content`);

  const images = messages.flatMap((m, i) => {
    if (m.role !== "user" && imagesOf(m, i).length) refuse("Only user messages may carry images.", `messages[${i}]`);
    return imagesOf(m, i);
  });
  if (images.length > MAX_CHAT_IMAGES) refuse(`At most ${MAX_CHAT_IMAGES} images per request.`, "messages");

  const isSystem = (m: ChatMessage) => m.role === "system" || m.role === "developer";
  const system = messages
    .filter(isSystem)
    .map(textOf)
    .filter((t) => t.trim());
  const llmArgs = Object.fromEntries(
    PASSED_CHAT_OPTIONS.flatMap((option) =>
      body[option] === undefined || body[option] === null ? [] : [[option, body[option]]],
    ),
  );
  const agent = {
    agent_config: {
      agent_name: "Assistant",
      model_name: body.model,
      system_prompt: system.length ? system.join("\n\n") : DEFAULT_SYSTEM_PROMPT,
      temperature: body.temperature ?? DEFAULT_TEMPERATURE,
      max_tokens: body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_MAX_TOKENS,
      max_loops: body.max_loops ?? 1,
      ...(Object.keys(llmArgs).length ? { llm_args: llmArgs } : {}),
    },
    task,
    history: historyOf(messages.slice(0, last).filter((m) => !isSystem(m))),
    imgs: images.map((image) => image.url),
    stream: Boolean(body.stream),
  };
  // The agent schema fills in the hosted defaults; the chat schema already checked every value it takes.
  const { value, error } = validateRequest(agentCompletionSchema, agent);
  if (error) refuse(error.details.map((d) => d.message.replace(/"/g, "'")).join("; "), "messages");
  const imageUrls = images.filter((image) => /^https?:/i.test(image.url.trim()));
  return { request: value as AgentCompletionRequest, imageUrls };
}
