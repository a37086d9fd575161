import type { ChatRunMessage, ChatRunOutput } from "../../../shared/contracts/chat-run";
import type {
  ResponseContentPart,
  ResponseInputItem,
  ResponseRunRequest,
} from "../../../shared/contracts/response-run";
import { BadRequestError } from "../../../shared/errors";

/** An input item as the schema lets it through: its id and `type` may be left out. */
export type GivenInputItem =
  | (Omit<Extract<ResponseInputItem, { type: "message" }>, "id" | "type"> & { type?: "message"; id?: string })
  | (Omit<Extract<ResponseInputItem, { type: "function_call" }>, "id"> & { id?: string })
  | (Omit<Extract<ResponseInputItem, { type: "function_call_output" }>, "id" | "output"> & {
      id?: string | null;
      output: string | { type: "input_text"; text: string }[];
    });

function refuse(message: string, param: string): never {
  throw new BadRequestError(message, { param }, "INVALID_REQUEST");
}

/**
 * The input as items, each with the id `input_items` lists it under: the client's own, else one
 * made once from `idHex` (random per request) and the item's place (`msg_…_in3`), stored with it.
 */
export function inputItems(input: string | GivenInputItem[] | undefined, idHex: string): ResponseInputItem[] {
  if (input === undefined) return [];
  const given: GivenInputItem[] = typeof input === "string" ? [{ role: "user", content: input }] : input;
  return given.map((item, i): ResponseInputItem => {
    const made = `${item.type === "function_call" ? "fc" : item.type === "function_call_output" ? "fco" : "msg"}_${idHex}_in${i}`;
    const id = item.id ?? made;
    if (item.type === "function_call") return { ...item, id };
    if (item.type === "function_call_output") {
      const output = typeof item.output === "string" ? item.output : item.output.map((part) => part.text).join("\n");
      return { type: "function_call_output", id, call_id: item.call_id, output };
    }
    return { type: "message", id, role: item.role, content: item.content };
  });
}

/** A part as a chat content part: text and images (the schema refused the rest). */
function chatPart(part: ResponseContentPart) {
  if (part.type === "input_image")
    return {
      type: "image_url" as const,
      image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) },
    };
  return { type: "text" as const, text: part.type === "refusal" ? part.refusal : part.text };
}

const textOf = (content: string | ResponseContentPart[]) =>
  typeof content === "string"
    ? content
    : content
        .map((part) => chatPart(part))
        .map((p) => ("text" in p ? p.text : ""))
        .join("");

/** A message item as a chat message: images only from the user, as the models take them. */
function chatMessage(item: Extract<ResponseInputItem, { type: "message" }>, where: string): ChatRunMessage {
  const { role, content } = item;
  if (typeof content !== "string" && role !== "user" && content.some((part) => part.type === "input_image"))
    refuse("Only user messages may carry images.", `${where}.content`);
  if (role === "user")
    return { role, content: typeof content === "string" ? content : content.map(chatPart) } as ChatRunMessage;
  return { role, content: textOf(content) };
}

/**
 * Input items as the chat messages the model is sent, in order: messages as they are (an
 * assistant's `output_text` and `refusal` parts as its text), consecutive `function_call` items as
 * the tool calls of one assistant message (joined to the assistant message just before them, the
 * same turn), and each `function_call_output` as the `tool` message answering its call.
 * `param`: where the items sit in the request, for the refusals' `param`.
 */
export function chatMessagesOf(items: ResponseInputItem[], param = "input"): ChatRunMessage[] {
  const messages: ChatRunMessage[] = [];
  items.forEach((item, i) => {
    const where = `${param}[${i}]`;
    if (item.type === "message") {
      messages.push(chatMessage(item, where));
      return;
    }
    if (item.type === "function_call_output") {
      messages.push({ role: "tool", tool_call_id: item.call_id, content: item.output });
      return;
    }
    const call = {
      id: item.call_id,
      type: "function" as const,
      function: { name: item.name, arguments: item.arguments },
    };
    const last = messages.at(-1);
    if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), call];
    else messages.push({ role: "assistant", content: null, tool_calls: [call] });
  });
  return messages;
}

/**
 * The conversation a response leaves for one that continues it (`previous_response_id`): the
 * messages its call was sent, without its own instructions (OpenAI does not carry them over),
 * then its answer as the assistant's turn.
 */
export function conversationAfter(
  request: Pick<ResponseRunRequest, "messages" | "response">,
  output: ChatRunOutput | null,
): ChatRunMessage[] {
  const sent = request.response.instructions === null ? request.messages : request.messages.slice(1);
  const answer = output?.choices[0]?.message;
  if (!answer) return sent;
  const calls = answer.tool_calls?.length ? { tool_calls: answer.tool_calls } : {};
  return [...sent, { role: "assistant", content: answer.content ?? answer.refusal ?? null, ...calls }];
}
