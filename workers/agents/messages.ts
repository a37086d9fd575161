import type { HistoryMessage } from "../../shared/contracts/agent-spec";
import type { ChatMessage } from "../../shared/llm/chat";

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

const ROLES = new Set(["system", "user", "assistant"]);

/** Prior turns from `history`: a list of messages, or an object holding one (`messages`) or free-form notes. */
export function historyMessages(history: HistoryMessage[] | Record<string, unknown> | null | undefined): ChatMessage[] {
  if (!history) return [];
  const list = Array.isArray(history)
    ? history
    : Array.isArray(history.messages)
      ? (history.messages as HistoryMessage[])
      : null;
  if (!list) return [{ role: "user", content: `Earlier conversation (for context):\n${JSON.stringify(history)}` }];
  return list.map((m): ChatMessage => {
    const role = ROLES.has(String(m.role)) ? (m.role as "system" | "user" | "assistant") : "user";
    const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
    return { role, content } as ChatMessage;
  });
}

const BASE64_SIGNATURES: [string, string][] = [
  ["iVBORw0KGgo", "image/png"],
  ["/9j/", "image/jpeg"],
  ["R0lGOD", "image/gif"],
  ["UklGR", "image/webp"],
];

/**
 * A client's image data as the provider expects it: data URLs as given, raw base64 wrapped. An
 * http(s) URL is never sent on: `imageForModel` fetches it and sends its data instead.
 */
export function imageUrl(image: string): string {
  if (/^(https?:|data:)/i.test(image)) return image;
  const mime = BASE64_SIGNATURES.find(([prefix]) => image.startsWith(prefix))?.[1] ?? "image/png";
  return `data:${mime};base64,${image}`;
}

/** The user message of a turn, with image parts (each already a data URL) when the turn takes images. */
export function userMessage(text: string, images: string[] = []): ChatMessage {
  if (images.length === 0) return { role: "user", content: text };
  const parts: ContentPart[] = [
    { type: "text", text },
    ...images.map((url) => ({ type: "image_url" as const, image_url: { url } })),
  ];
  return { role: "user", content: parts } as ChatMessage;
}

/** The follow-up that asks an agent to improve its last answer (agent `max_loops` > 1). */
export const REVIEW_PROMPT =
  "Review your previous answer against the task. Fix any mistakes, fill any gaps and tighten it. Reply with the improved answer only.";
