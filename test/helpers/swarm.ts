import { hashText } from "../../scripts/llm-simulator/hash";
import type { Harness } from "./harness";
import { request } from "./http";

/** A unique marker to put in a task, so a test finds its own calls in the shared simulator journal. */
export const uniqueMarker = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** Posts a swarm (E1) and returns the response. */
export function postSwarm(h: Harness, key: string, body: unknown, headers: Record<string, string> = {}) {
  return request(h.baseUrl, "POST", "/v1/swarm/completions", { key, body, headers });
}

/** Simulator calls whose messages mention `marker`, in the order they were made. */
export function callsMentioning(h: Harness, marker: string): any[] {
  return h.sim.journal.filter((e: any) => JSON.stringify(e.body.messages).includes(marker)).map((e: any) => e.body);
}

/** The agent a call was made for, read from the team note at the end of its system prompt. */
export function callerOf(body: any): string {
  const system = String(body.messages[0]?.content ?? "");
  const note = /You are ([^,\n]+), an agent of the/.exec(system);
  return note ? note[1] : "?";
}

/** The user message (the turn's input) of a call. */
export function inputOf(body: any): string {
  const user = body.messages.filter((m: any) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : (user?.content?.[0]?.text ?? "");
}

/** A swarm agent spec with a name and a recognisable prompt. */
export function agent(name: string, extra: Record<string, unknown> = {}) {
  return { agent_name: name, description: `${name} does its part`, system_prompt: `You are ${name}.`, ...extra };
}

/** The conversation id the simulator puts in its default reply: ties an output turn to its call. */
export const conversationOf = (body: any) => `(conversation ${hashText(JSON.stringify(body.messages)).slice(0, 8)})`;
