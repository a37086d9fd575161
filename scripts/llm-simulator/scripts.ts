import { MAX_LATENCY_MS } from "./parse-request";
import type { ChatMessage, ChatRequest, ScriptedReply, SimControls } from "./types";

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
 * The script for a request, if any: the newest rule whose `contains` text appears in any user,
 * system or tool message (a tool message, so a script can answer a repair that quotes a problem).
 * Scripts let a test choose what the model does with a request it does not build itself (one the
 * service makes on its own behalf), the way `sim_*` fields do for requests it builds.
 */
export function scriptFor(scripts: readonly ScriptedReply[], request: ChatRequest): ScriptedReply | undefined {
  const texts = request.messages.filter((m) => SCRIPTED_ROLES.has(m.role)).map(textOf);
  for (let i = scripts.length - 1; i >= 0; i--) {
    if (texts.some((text) => text.includes(scripts[i].contains))) return scripts[i];
  }
  return undefined;
}

/** A request's controls with its script's filled in where the request set none of its own. */
export function withScript(controls: SimControls, script: ScriptedReply | undefined): SimControls {
  if (!script) return controls;
  return {
    ...controls,
    reply: controls.reply ?? script.reply,
    error: controls.error ?? script.error,
    latencyMs: controls.latencyMs || (script.latency_ms ?? 0),
  };
}

/** Checks a rule sent over HTTP; returns the problem, or null when it is valid. */
export function scriptProblem(value: unknown): string | null {
  const rule = value as Partial<ScriptedReply> | null;
  if (!rule || typeof rule !== "object") return "expected a JSON object {contains, reply?, error?, latency_ms?}";
  if (typeof rule.contains !== "string" || rule.contains.length === 0) return "'contains' must be a non-empty string";
  if (rule.reply === undefined && rule.error === undefined && rule.latency_ms === undefined)
    return "give at least one of 'reply', 'error' and 'latency_ms'";
  if (rule.reply !== undefined && typeof rule.reply !== "string") return "'reply' must be a string";
  const { error, latency_ms: latency } = rule;
  if (error !== undefined && !(Number.isInteger(error) && error >= 400 && error <= 599))
    return "'error' must be an HTTP error status (400-599)";
  if (latency !== undefined && !(typeof latency === "number" && latency >= 0 && latency <= MAX_LATENCY_MS))
    return `'latency_ms' must be a number from 0 to ${MAX_LATENCY_MS}`;
  return null;
}

/** The rule as given, without anything else its JSON carried. */
export function scriptRule(rule: ScriptedReply): ScriptedReply {
  const { contains, reply, error, latency_ms } = rule;
  return { contains, reply, error, latency_ms };
}
