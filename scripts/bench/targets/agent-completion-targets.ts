import { parseJsonObject, type HttpTarget } from "../client/http-target";

const SYSTEM_PROMPT = "You are concise.";
const TASK = "Name three uses of honey.";

/**
 * The LLM call the agent makes, sent straight to the simulator: what the service's answer costs
 * without the service. The simulator adds no latency unless asked (`sim_latency_ms`), so the
 * difference to the service target is the service's own overhead.
 */
export function directTarget(simulatorUrl: string): HttpTarget {
  return {
    name: "direct",
    url: `${simulatorUrl}/v1/chat/completions`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "gpt-4.1",
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: TASK },
      ],
      max_tokens: 8192,
    }),
    checkBody(body) {
      const choices = parseJsonObject(body)?.choices;
      return Array.isArray(choices) && choices.length > 0
        ? null
        : `simulator answer has no choices: ${body.slice(0, 300)}`;
    },
  };
}

/** The same call through Apiary's `POST /v1/agent/completions`: validate, store, queue, worker, wait, answer. */
export function serviceTarget(apiUrl: string, apiKey: string): HttpTarget {
  return {
    name: "service",
    url: `${apiUrl}/v1/agent/completions`,
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify({ agent_config: { agent_name: "Bench", system_prompt: SYSTEM_PROMPT }, task: TASK }),
    checkBody(body) {
      return parseJsonObject(body)?.success === true
        ? null
        : `service answer lacks success: true: ${body.slice(0, 300)}`;
    },
  };
}

/** The same call as an OpenAI client makes it through Apiary's `POST /v1/chat/completions`: one chat_completion run. */
export function chatServiceTarget(apiUrl: string, apiKey: string): HttpTarget {
  return {
    name: "service",
    url: `${apiUrl}/v1/chat/completions`,
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "gpt-4.1",
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: TASK },
      ],
    }),
    checkBody(body) {
      return parseJsonObject(body)?.object === "chat.completion"
        ? null
        : `service answer is no chat.completion: ${body.slice(0, 300)}`;
    },
  };
}
