import { hashText, seedFromHash } from "./hash";
import { sampleSchema } from "./schema-sample";
import { countPromptTokens, countTokens, truncateToTokens } from "./tokens";
import type { ChatMessage, ChatRequest, FunctionTool, Reply, SimControls, ToolCall } from "./types";

const EXCERPT_LIMIT = 200;
const PARALLEL_CALL_LIMIT = 2;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Text and number of non-text parts (images, audio, files) of a message. */
function readContent(message: ChatMessage): { text: string; attachments: number } {
  const content = message.content;
  if (typeof content === "string") return { text: content, attachments: 0 };
  if (!Array.isArray(content)) return { text: "", attachments: 0 };
  const texts: string[] = [];
  let attachments = 0;
  for (const part of content) {
    if (part && part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else attachments++;
  }
  return { text: texts.join(" "), attachments };
}

/**
 * At most EXCERPT_LIMIT characters of the user's text. `@` becomes a full-width `＠` so echoing a
 * message that mentions an agent cannot itself trigger that agent (endless mention ping-pong);
 * use `sim_reply` to produce a real mention on purpose.
 */
function excerpt(text: string): string {
  let value = text.trim();
  if (value.length > EXCERPT_LIMIT) {
    let end = EXCERPT_LIMIT - 1;
    const code = value.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--; // do not split a surrogate pair
    value = `${value.slice(0, end)}…`;
  }
  return value.replace(/@/g, "＠");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The deterministic sentence or two answering a conversation. */
function sentence(request: ChatRequest): string {
  const messages = request.messages;
  const conversation = hashText(JSON.stringify(messages)).slice(0, 8);
  const prefix = `[simulated ${request.model}] `;
  const lastUser = messages.findLast((m) => m.role === "user");
  if (!lastUser) return `${prefix}There is no user message to answer (conversation ${conversation}).`;

  const { text, attachments } = readContent(lastUser);
  const quoted = `"${excerpt(text)}"`;
  let trailingToolResults = 0;
  for (let i = messages.length - 1; i >= 0 && isToolResult(messages[i]); i--) trailingToolResults++;

  let answer =
    trailingToolResults > 0
      ? `${prefix}Using ${plural(trailingToolResults, "tool result")}, here is my answer to ${quoted} (conversation ${conversation}).`
      : `${prefix}You said ${quoted}. This is a deterministic reply (conversation ${conversation}).`;
  if (attachments > 0) answer += ` I also received ${plural(attachments, "attachment")}.`;
  return answer;
}

function isToolResult(message: ChatMessage): boolean {
  return message.role === "tool" || message.role === "function";
}

/** The text (or JSON text for structured outputs) the assistant answers with, before max_tokens. */
function textAnswer(request: ChatRequest, controls: SimControls, requestKey: () => string): string {
  if (controls.reply !== undefined) return controls.reply;
  const format = request.response_format;
  if (format?.type === "json_schema") {
    return JSON.stringify(sampleSchema(format.json_schema.schema ?? { type: "object" }, seedFromHash(requestKey())));
  }
  if (format?.type === "json_object") {
    const last = request.messages.findLast((m) => m.role === "user");
    return JSON.stringify({
      simulated: true,
      model: request.model,
      conversation: hashText(JSON.stringify(request.messages)).slice(0, 8),
      echo: last ? excerpt(readContent(last).text) : "",
    });
  }
  return sentence(request);
}

/**
 * Which tools to call, if any. Forced choices always call; `auto` calls until the model has seen
 * tool results, so a simulated agent loop (call → result → answer) terminates.
 */
function toolsToCall(request: ChatRequest, controls: SimControls): FunctionTool[] {
  const tools = Array.isArray(request.tools) ? request.tools : [];
  if (tools.length === 0) return [];
  const choice = request.tool_choice ?? "auto";
  if (choice === "none") return [];
  if (isObject(choice) && choice.type === "function") {
    return tools.filter((tool) => tool.function.name === choice.function.name).slice(0, 1);
  }
  if (choice === "required") return tools.slice(0, 1);
  // `auto`, and newer forms the simulator does not model (e.g. allowed_tools), behave as auto.
  if (controls.reply !== undefined) return [];
  const last = request.messages[request.messages.length - 1];
  if (last && isToolResult(last)) return [];
  // OpenAI defaults parallel_tool_calls to true.
  return tools.slice(0, request.parallel_tool_calls === false ? 1 : PARALLEL_CALL_LIMIT);
}

/** A reply that is a JSON object, as forced function calls take it for their arguments; else undefined. */
function scriptedArguments(controls: SimControls): Record<string, unknown> | undefined {
  if (controls.reply === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(controls.reply);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function toolCall(
  tool: FunctionTool,
  requestKey: string,
  index: number,
  controls: SimControls,
  scripted?: Record<string, unknown>,
): ToolCall {
  const callHash = hashText(`${requestKey}:${index}`);
  const value =
    scripted ??
    controls.toolArguments?.[tool.function.name] ??
    sampleSchema(tool.function.parameters ?? { type: "object" }, seedFromHash(callHash));
  // Arguments must be a JSON object even when the parameters schema is empty or odd.
  const args = isObject(value) ? value : {};
  return {
    id: `call_${callHash.slice(0, 24)}`,
    type: "function",
    function: { name: tool.function.name, arguments: JSON.stringify(args) },
  };
}

/** Whether the request forces one named function (a structured decision). */
function forcesFunction(request: ChatRequest): boolean {
  const choice = request.tool_choice;
  return isObject(choice) && choice.type === "function";
}

/**
 * The simulated assistant turn for a validated request: same request → same reply. `requestKey`
 * is lazy because hashing the whole body is only needed for tool calls and structured outputs.
 * Tool-call arguments are never cut by max_tokens, so they always stay valid JSON.
 */
export function buildReply(request: ChatRequest, controls: SimControls, requestKey: () => string): Reply {
  const promptTokens = countPromptTokens(request);
  const tools = toolsToCall(request, controls);
  if (tools.length > 0) {
    const key = requestKey();
    // A forced call takes a JSON-object reply (`sim_reply` or a script) as its arguments, so a test
    // can make a decision say exactly what it needs, invalid on purpose included; otherwise a sample.
    const scripted = forcesFunction(request) ? scriptedArguments(controls) : undefined;
    const toolCalls = tools.map((tool, index) => toolCall(tool, key, index, controls, scripted));
    let completionTokens = 0;
    for (const call of toolCalls) {
      completionTokens += countTokens(call.function.name) + countTokens(call.function.arguments);
    }
    return { content: null, toolCalls, finishReason: "tool_calls", promptTokens, completionTokens };
  }

  const full = textAnswer(request, controls, requestKey);
  const limit = request.max_completion_tokens ?? request.max_tokens;
  if (typeof limit === "number") {
    const cut = truncateToTokens(full, limit);
    return {
      content: cut.text,
      toolCalls: [],
      finishReason: cut.truncated ? "length" : "stop",
      promptTokens,
      completionTokens: cut.tokens,
    };
  }
  return { content: full, toolCalls: [], finishReason: "stop", promptTokens, completionTokens: countTokens(full) };
}
