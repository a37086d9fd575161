import type { ServerResponse } from "node:http";
import { type CompletionMeta, SYSTEM_FINGERPRINT, usageOf } from "./completion";
import { runAt } from "./timing";
import type { Reply } from "./types";

// Chunks of roughly a few words: long enough to keep frame count low, short enough that clients
// see several deltas (which is what streaming code paths need to be exercised).
const TARGET_CHUNK_CHARS = 12;
const MAX_CHUNK_CHARS = 40;

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

/** Splits text into pieces whose concatenation is exactly `text`, cutting after spaces when possible. */
function splitForStream(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + MAX_CHUNK_CHARS, text.length);
    if (end < text.length) {
      // Bounded scan (not indexOf) so long space-free text such as JSON stays linear.
      for (let i = start + TARGET_CHUNK_CHARS; i < end; i++) {
        if (text.charCodeAt(i) === 32) {
          end = i + 1;
          break;
        }
      }
      // A lone surrogate would not survive UTF-8 encoding, so keep pairs in one piece.
      const code = text.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end++;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * Every SSE frame of a streamed reply, in OpenAI's `chat.completion.chunk` format: role, content
 * or tool-call deltas, finish reason, optional usage chunk, then `[DONE]`.
 */
export function buildFrames(meta: CompletionMeta, replies: Reply[], includeUsage: boolean): string[] {
  const frames: string[] = [];
  const push = (choices: unknown[], usage?: unknown) => {
    const chunk: Record<string, unknown> = {
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      service_tier: "default",
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices,
    };
    // With include_usage OpenAI sends `usage: null` on every chunk but the last one.
    if (includeUsage) chunk.usage = usage ?? null;
    frames.push(`data: ${JSON.stringify(chunk)}\n\n`);
  };
  replies.forEach((reply, index) => {
    const delta = (d: Record<string, unknown>, finishReason: string | null = null, logprobs: unknown = null) =>
      push([{ index, delta: d, logprobs, finish_reason: finishReason }]);
    pushAnswer(reply, delta);
  });
  if (includeUsage) push([], usageOf(replies));
  frames.push("data: [DONE]\n\n");
  return frames;
}

/** One answer's deltas: its role, its text or tool calls in pieces, then why it ended (with its log probabilities). */
function pushAnswer(
  reply: Reply,
  delta: (d: Record<string, unknown>, finishReason?: string | null, logprobs?: unknown) => void,
): void {
  if (reply.toolCalls.length > 0) {
    delta({ role: "assistant", content: null, refusal: null });
    reply.toolCalls.forEach((call, index) => {
      delta({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
      });
      for (const piece of splitForStream(call.function.arguments)) {
        delta({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    });
  } else {
    delta({ role: "assistant", content: "", refusal: null });
    for (const piece of splitForStream(reply.content ?? "")) delta({ content: piece });
  }
  delta({}, reply.finishReason, reply.logprobs ?? null);
}

/**
 * Sends the frames. Without latency everything goes out in one write (cheapest for benchmarks);
 * with latency the first frame waits a third of it and the rest are spread evenly, so the stream
 * ends `latencyMs` after the request arrived.
 */
export function sendStream(res: ServerResponse, frames: string[], startedAt: number, latencyMs: number): void {
  if (latencyMs <= 0) {
    res.writeHead(200, SSE_HEADERS);
    res.end(frames.join(""));
    return;
  }
  const first = startedAt + latencyMs / 3;
  const gap = (latencyMs - latencyMs / 3) / Math.max(frames.length - 1, 1);
  let sent = 0;
  const sendNext = () => {
    if (res.destroyed) return;
    if (sent === 0) res.writeHead(200, SSE_HEADERS);
    res.write(frames[sent++]);
    if (sent === frames.length) res.end();
    else runAt(first + gap * sent, res, sendNext);
  };
  runAt(first, res, sendNext);
}
