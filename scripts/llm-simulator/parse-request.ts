import { outputCapProblem } from "./models";
import type { ChatRequest, SimControls } from "./types";

/** A validated request with its controls, or the 400 message explaining what is wrong. */
export type ParseResult =
  | { ok: true; body: Record<string, unknown>; request: ChatRequest; controls: SimControls }
  | { ok: false; body: unknown; message: string; param: string | null };

// A latency above this is almost certainly a unit mistake (seconds vs ms) and would hang a test.
/** The longest simulated latency a request or a script may ask for. */
export const MAX_LATENCY_MS = 600_000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPositiveInt(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

/** The first problem with the OpenAI fields the simulator relies on, or undefined. */
function findRequestProblem(body: Record<string, unknown>): { message: string; param: string | null } | undefined {
  if (typeof body.model !== "string" || body.model.length === 0) {
    return { message: "you must provide a model parameter", param: "model" };
  }
  const messages = body.messages;
  if (messages === undefined) return { message: "Missing required parameter: 'messages'.", param: "messages" };
  if (!Array.isArray(messages)) {
    return { message: "Invalid type for 'messages': expected an array of objects.", param: "messages" };
  }
  if (messages.length === 0) {
    return { message: "Invalid 'messages': empty array. Expected an array with minimum length 1.", param: "messages" };
  }
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isObject(message) || typeof message.role !== "string") {
      return { message: `Invalid 'messages[${i}]': expected an object with a string 'role'.`, param: `messages[${i}]` };
    }
  }

  const tools = body.tools;
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) return { message: "Invalid type for 'tools': expected an array.", param: "tools" };
    for (let i = 0; i < tools.length; i++) {
      const tool: unknown = tools[i];
      if (
        !isObject(tool) ||
        tool.type !== "function" ||
        !isObject(tool.function) ||
        typeof tool.function.name !== "string"
      ) {
        return {
          message: `Invalid 'tools[${i}]': expected {type: "function", function: {name, parameters}}.`,
          param: `tools[${i}]`,
        };
      }
    }
  }
  const hasTools = Array.isArray(tools) && tools.length > 0;
  const choice = body.tool_choice;
  if ((choice === "required" || isObject(choice)) && !hasTools) {
    return {
      message: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      param: "tool_choice",
    };
  }
  if (isObject(choice) && choice.type === "function") {
    const name = isObject(choice.function) ? choice.function.name : undefined;
    const known = (tools as Array<{ function: { name: string } }>).some((tool) => tool.function.name === name);
    if (!known) {
      return {
        message: `Invalid value for 'tool_choice': function '${String(name)}' is not in 'tools'.`,
        param: "tool_choice",
      };
    }
  }

  const format = body.response_format;
  if (format !== undefined && format !== null) {
    if (!isObject(format) || !["text", "json_object", "json_schema"].includes(format.type as string)) {
      return {
        message: "Invalid 'response_format': expected type text, json_object or json_schema.",
        param: "response_format",
      };
    }
    if (format.type === "json_schema" && !isObject(format.json_schema)) {
      return {
        message: "Missing required parameter: 'response_format.json_schema'.",
        param: "response_format.json_schema",
      };
    }
  }
  for (const param of ["max_tokens", "max_completion_tokens"]) {
    const value = body[param];
    if (value !== undefined && value !== null && !isPositiveInt(value)) {
      return { message: `Invalid '${param}': expected an integer of at least 1.`, param };
    }
  }
  return outputCapProblem(body as { model: string });
}

/** Reads the `sim_*` fields; a malformed control is a client mistake worth a loud 400. */
function parseControls(body: Record<string, unknown>): SimControls | { message: string; param: string } {
  const controls: SimControls = { latencyMs: 0 };
  const latency = body.sim_latency_ms;
  if (latency !== undefined && latency !== null) {
    if (typeof latency !== "number" || !Number.isFinite(latency) || latency < 0 || latency > MAX_LATENCY_MS) {
      return {
        message: `Invalid 'sim_latency_ms': expected a number from 0 to ${MAX_LATENCY_MS}.`,
        param: "sim_latency_ms",
      };
    }
    controls.latencyMs = latency;
  }
  const error = body.sim_error;
  if (error !== undefined && error !== null) {
    if (typeof error !== "number" || !Number.isInteger(error) || error < 400 || error > 599) {
      return { message: "Invalid 'sim_error': expected an HTTP error status (400-599).", param: "sim_error" };
    }
    controls.error = error;
  }
  const times = body.sim_error_times;
  if (times !== undefined && times !== null) {
    if (typeof times !== "number" || !Number.isInteger(times) || times < 0) {
      return { message: "Invalid 'sim_error_times': expected a non-negative integer.", param: "sim_error_times" };
    }
    controls.errorTimes = times;
  }
  const errorModel = body.sim_error_model;
  if (errorModel !== undefined && errorModel !== null) {
    if (typeof errorModel !== "string")
      return { message: "Invalid 'sim_error_model': expected a model name.", param: "sim_error_model" };
    controls.errorModel = errorModel;
  }
  const retryAfter = body.sim_retry_after_ms;
  if (retryAfter !== undefined && retryAfter !== null) {
    if (
      typeof retryAfter !== "number" ||
      !Number.isInteger(retryAfter) ||
      retryAfter < 0 ||
      retryAfter > MAX_LATENCY_MS
    ) {
      return {
        message: `Invalid 'sim_retry_after_ms': expected an integer from 0 to ${MAX_LATENCY_MS}.`,
        param: "sim_retry_after_ms",
      };
    }
    controls.retryAfterMs = retryAfter;
  }
  const reply = body.sim_reply;
  if (reply !== undefined && reply !== null) {
    if (typeof reply !== "string") return { message: "Invalid 'sim_reply': expected a string.", param: "sim_reply" };
    controls.reply = reply;
  }
  const toolArguments = body.sim_tool_arguments;
  if (toolArguments !== undefined && toolArguments !== null) {
    const valid = isObject(toolArguments) && Object.values(toolArguments).every((args) => isObject(args));
    if (!valid)
      return {
        message: "Invalid 'sim_tool_arguments': expected an object of tool name → arguments object.",
        param: "sim_tool_arguments",
      };
    controls.toolArguments = toolArguments as Record<string, Record<string, unknown>>;
  }
  return controls;
}

/** Parses and validates a Chat Completions body; failures carry an OpenAI-style message. */
export function parseChatRequest(raw: string): ParseResult {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return {
      ok: false,
      body: raw,
      message: "We could not parse the JSON body of your request. The request body must be valid JSON.",
      param: null,
    };
  }
  if (!isObject(body)) {
    return { ok: false, body, message: "Invalid request body: expected a JSON object.", param: null };
  }
  const problem = findRequestProblem(body);
  if (problem) return { ok: false, body, ...problem };
  const controls = parseControls(body);
  if ("message" in controls) return { ok: false, body, ...controls };
  return { ok: true, body, request: body as unknown as ChatRequest, controls };
}
