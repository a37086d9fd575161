import OpenAI from "openai";
import type { FloorLlm } from "./floor-variants";

/** What the floor's worker sends: the agent's system prompt and the task, as the real agent does. */
interface LlmCall {
  system: string;
  task: string;
}

/** Calls the LLM once, non-streaming, and resolves with the answer's text. */
export type LlmCaller = (call: LlmCall) => Promise<string>;

const MODEL = "gpt-4.1";

/**
 * The floor worker's LLM client, `sdk` (the `openai` SDK as the real worker configures it: one
 * client reused, its own retries off) or `fetch` (one plain request, the JSON parsed).
 */
export function llmCaller(kind: FloorLlm, baseUrl: string, apiKey: string): LlmCaller {
  const messages = (c: LlmCall) => [
    { role: "system" as const, content: c.system },
    { role: "user" as const, content: c.task },
  ];
  if (kind === "sdk") {
    const client = new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0 });
    return async (c) => {
      const completion = await client.chat.completions.create({ model: MODEL, messages: messages(c) });
      return completion.choices[0]?.message.content ?? "";
    };
  }
  const url = `${baseUrl}/chat/completions`;
  const headers = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  return async (c) => {
    const res = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: MODEL, messages: messages(c) }),
    });
    if (!res.ok) throw new Error(`LLM answered ${res.status}`);
    const json = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    return json.choices?.[0]?.message?.content ?? "";
  };
}
