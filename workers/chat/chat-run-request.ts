import type { ChatRunMessage, ChatRunRequest } from "../../shared/contracts/chat-run";
import type { ChatMessage, ChatRequest } from "../../shared/llm/chat";
import { chatRunOptionsOf } from "../../shared/llm/provider-options";
import type { ResolvedModel } from "../../shared/llm/providers";
import type { UsageCounter } from "../agents/agent-context";
import { modelFamily } from "../agents/model-family";
import { imageForModel } from "../agents/run-images";

type Part = { type: string; image_url?: { url: string } };

/** The image parts of a conversation's messages, in order. */
function imagePartsOf(messages: ChatRunMessage[]): { url: string }[] {
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Part[]).flatMap((p) => (p.type === "image_url" && p.image_url ? [p.image_url] : []))
      : [],
  );
}

/** Every image a conversation gives (each is charged as an agent run's image is). */
export function imagesOf(messages: ChatRunMessage[]): string[] {
  return imagePartsOf(messages).map((image) => image.url);
}

/**
 * The conversation as the model is sent it: every image URL replaced by its data, fetched here
 * through the egress policy (`imageForModel`: a model server given the URL would fetch it inside
 * the operator's network); everything else as the client wrote it.
 */
export async function messagesForModel(
  messages: ChatRunMessage[],
  usage: UsageCounter,
  signal: AbortSignal,
): Promise<ChatMessage[]> {
  const out = structuredClone(messages);
  // Fetched before any call, so an image that cannot be used fails the run before it spends anything.
  await Promise.all(
    imagePartsOf(out).map(async (image) => {
      image.url = await imageForModel(usage, image.url, signal);
    }),
  );
  return out;
}

/**
 * The provider request of a chat run's one call: the conversation, the client's options on the
 * allow-list for the model and its tools, and the output cap per answer in the field the model's
 * family takes (reasoning models count hidden reasoning in `max_completion_tokens`).
 */
export function chatRunProviderRequest(
  request: ChatRunRequest,
  target: ResolvedModel,
  messages: ChatMessage[],
  maxTokens: number,
): ChatRequest {
  const out: ChatRequest = { messages, ...chatRunOptionsOf(request.options, request.model) };
  if (modelFamily(target) === "openai-reasoning") out.max_completion_tokens = maxTokens;
  else out.max_tokens = maxTokens;
  return out;
}
