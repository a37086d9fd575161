import type { ChatMessage, ChatRequest, ScriptedReply } from "./types";

function textOf(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .join(" ");
}

/** The messages a script's `contains` is looked for in: what the service sends, not what the model said. */
const SCRIPTED_ROLES = new Set(["user", "system", "tool"]);

/**
 * The scripted answer for a request, if any: the newest rule whose `contains` text appears in any
 * user, system or tool message (a tool message, so a script can answer a repair that quotes a
 * problem). Scripts let a test choose what the model answers to a request it does not build
 * itself (one the service makes on its own behalf), the way `sim_reply` does for requests it builds.
 */
export function scriptedReply(scripts: readonly ScriptedReply[], request: ChatRequest): string | undefined {
  const texts = request.messages.filter((m) => SCRIPTED_ROLES.has(m.role)).map(textOf);
  for (let i = scripts.length - 1; i >= 0; i--) {
    if (texts.some((text) => text.includes(scripts[i].contains))) return scripts[i].reply;
  }
  return undefined;
}

/** Checks a rule sent over HTTP; returns the problem, or null when it is valid. */
export function scriptProblem(value: unknown): string | null {
  const rule = value as Partial<ScriptedReply> | null;
  if (!rule || typeof rule !== "object") return "expected a JSON object {contains, reply}";
  if (typeof rule.contains !== "string" || rule.contains.length === 0) return "'contains' must be a non-empty string";
  if (typeof rule.reply !== "string") return "'reply' must be a string";
  return null;
}
