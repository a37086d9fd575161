import type { ChatRunOutput, ChatRunUsage } from "../../../shared/contracts/chat-run";
import type { ResponseRunRequest } from "../../../shared/contracts/response-run";
import type { Run } from "../../../shared/db/entities/run.entity";
import type { RunEvent } from "../../../shared/queues/run-events";
import {
  functionCallItem,
  functionCallItemId,
  incompleteDetails,
  messageItem,
  messageItemId,
  outputTextPart,
  responseObject,
  responseUsage,
  type ResponseState,
} from "../../../shared/runs/presenters/response.presenter";
import type { Frame, FrameStream } from "../../reply";
import type { StreamFormat } from "../../spine/run-stream";
import { chatEndingOf } from "../chat-stream";

/** An output item being written: the answer's text, or one of its function calls. */
type OpenItem =
  | { kind: "message"; outputIndex: number; text: string; done: boolean }
  | {
      kind: "call";
      outputIndex: number;
      index: number;
      callId: string;
      name: string;
      arguments: string;
      done: boolean;
    };

const seconds = () => Math.floor(Date.now() / 1_000);

/**
 * OpenAI's Responses stream events, each with its `sequence_number`, told from a `response` run's
 * events: `response.created` (the first frame, before the run starts), `response.in_progress`,
 * then per output item `output_item.added`, its text (`content_part.added`,
 * `output_text.delta`…`.done`, `content_part.done`) or its call's arguments
 * (`function_call_arguments.delta`…`.done`), `output_item.done`, and at the end
 * `response.completed` (`response.incomplete` when the answer was cut short, `response.failed`
 * when the run failed). A stream cut short ends with an `error` event. The numbers are counted
 * from the run's record, which every reader reads from its start, so a replay numbers every
 * event the same and `starting_after` resumes exactly.
 */
export function responseStreamFormat(
  runId: string,
  queuedAt: Date,
  request: Omit<ResponseRunRequest, "budget">,
): StreamFormat {
  let sequence = 0;
  let started = false;
  let finishReason: string | undefined;
  const items: OpenItem[] = [];
  const frame = (type: string, fields: Record<string, unknown>): Frame => ({
    event: type,
    data: { type, sequence_number: sequence++, ...fields },
  });
  const response = (state: Partial<ResponseState> & Pick<ResponseState, "status">) =>
    responseObject(runId, queuedAt, request, {
      output: [],
      usage: null,
      error: null,
      incomplete_details: null,
      completed_at: null,
      ...state,
    });
  const itemOf = (item: OpenItem) =>
    item.kind === "message"
      ? messageItem(runId, item.text, item.done ? "completed" : "in_progress")
      : functionCallItem(
          runId,
          item.index,
          { call_id: item.callId, name: item.name, arguments: item.arguments },
          item.done ? "completed" : "in_progress",
        );
  const open = () => items.find((item) => !item.done);

  const closeOpen = (): Frame[] => {
    const item = open();
    if (!item) return [];
    item.done = true;
    const output_index = item.outputIndex;
    if (item.kind === "message") {
      const item_id = messageItemId(runId);
      const where = { item_id, output_index, content_index: 0 };
      return [
        frame("response.output_text.done", { ...where, text: item.text, logprobs: [] }),
        frame("response.content_part.done", { ...where, part: outputTextPart(item.text) }),
        frame("response.output_item.done", { output_index, item: itemOf(item) }),
      ];
    }
    const item_id = functionCallItemId(runId, item.index);
    return [
      frame("response.function_call_arguments.done", {
        item_id,
        output_index,
        name: item.name,
        arguments: item.arguments,
      }),
      frame("response.output_item.done", { output_index, item: itemOf(item) }),
    ];
  };

  const text = (delta: string): Frame[] => {
    const frames: Frame[] = [];
    let item = open();
    if (item?.kind !== "message") {
      frames.push(...closeOpen());
      item = { kind: "message", outputIndex: items.length, text: "", done: false };
      items.push(item);
      const output_index = item.outputIndex;
      frames.push(frame("response.output_item.added", { output_index, item: itemOf(item) }));
      const part = outputTextPart("");
      frames.push(
        frame("response.content_part.added", { item_id: messageItemId(runId), output_index, content_index: 0, part }),
      );
    }
    item.text += delta;
    const where = { item_id: messageItemId(runId), output_index: item.outputIndex, content_index: 0 };
    return [...frames, frame("response.output_text.delta", { ...where, delta, logprobs: [] })];
  };

  const callPiece = (event: Extract<RunEvent, { type: "tool_call_delta" }>): Frame[] => {
    const frames: Frame[] = [];
    let item = open();
    if (item?.kind !== "call" || item.index !== event.index) {
      frames.push(...closeOpen());
      item = {
        kind: "call",
        outputIndex: items.length,
        index: event.index,
        callId: event.id ?? "",
        name: event.name ?? "",
        arguments: "",
        done: false,
      };
      items.push(item);
      frames.push(frame("response.output_item.added", { output_index: item.outputIndex, item: itemOf(item) }));
    }
    item.arguments += event.arguments;
    if (!event.arguments) return frames;
    const where = { item_id: functionCallItemId(runId, item.index), output_index: item.outputIndex };
    return [...frames, frame("response.function_call_arguments.delta", { ...where, delta: event.arguments })];
  };

  const ending = (usage: unknown): Frame[] => {
    const frames = closeOpen();
    // An answer with neither text nor calls is an empty message, as the stored response shows it.
    if (items.length === 0) frames.push(...text(""), ...closeOpen());
    const incomplete = incompleteDetails(finishReason);
    const state = {
      output: items.map(itemOf),
      usage: responseUsage(usage as ChatRunUsage | null),
      incomplete_details: incomplete,
    };
    if (incomplete)
      return [...frames, frame("response.incomplete", { response: response({ ...state, status: "incomplete" }) })];
    const completed = response({ ...state, status: "completed", completed_at: seconds() });
    return [...frames, frame("response.completed", { response: completed })];
  };

  const first = request.response.background ? "queued" : "in_progress";
  return {
    metadata: frame("response.created", { response: response({ status: first }) }).data as Record<string, unknown>,
    framesFor(event: RunEvent): Frame[] {
      switch (event.type) {
        case "start":
          if (started) return [];
          started = true;
          return [frame("response.in_progress", { response: response({ status: "in_progress" }) })];
        case "chunk":
          return event.choice || event.agent !== undefined || !event.content ? [] : text(event.content);
        case "tool_call_delta":
          return event.choice ? [] : callPiece(event);
        case "choice_end":
          if (event.choice) return [];
          finishReason = event.finish_reason;
          return closeOpen();
        case "finish":
          return ending(event.usage);
        case "error": {
          const error = { code: "server_error", message: event.error };
          return [frame("response.failed", { response: response({ status: "failed", error }) })];
        }
        default:
          return [];
      }
    },
    endingOf: (run: Run, told?: boolean) => chatEndingOf(run.output as ChatRunOutput | null, run.usage, told),
    cutShort: (message, code) => frame("error", { code, message, param: null }),
  };
}

/**
 * A stream of this format from after event `startingAfter` on (`GET /v1/responses/{id}?stream=true&starting_after=N`):
 * the frames are told from the start, so they are numbered as before, and only the later ones sent.
 */
export function streamAfter(stream: FrameStream, startingAfter: number): FrameStream {
  const numberOf = (frame: Frame) => (frame.data as { sequence_number?: number }).sequence_number ?? Infinity;
  return async function* (stop) {
    for await (const frame of stream(stop)) if (numberOf(frame) > startingAfter) yield frame;
  };
}
