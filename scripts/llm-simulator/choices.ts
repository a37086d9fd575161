import { hashText } from "./hash";
import { countTokens } from "./tokens";
import type { ChatRequest, Reply } from "./types";

/** Most answers one request may ask for, as OpenAI allows. */
const MAX_CHOICES = 128;
/** Most alternatives per token, as OpenAI allows. */
const MAX_TOP_LOGPROBS = 20;

/** One token's log probability, in OpenAI's shape. */
interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

/** A deterministic log probability in (-2, 0] for a token at a place. */
function logprobOf(seed: string): number {
  return -Number((parseInt(hashText(seed).slice(0, 6), 16) / 0xffffff / 0.5).toFixed(4));
}

const bytesOf = (token: string) => [...Buffer.from(token, "utf8")];

/**
 * The log probabilities of a text answer: one entry per word-with-its-space (the simulator's
 * tokens), each with `top` alternatives, the token itself first; the same text gives the same numbers.
 */
function logprobsOf(text: string, top: number): { content: TokenLogprob[]; refusal: null } {
  const tokens = text.match(/\s*\S+|\s+/g) ?? [];
  const content = tokens.map((token, i) => {
    const logprob = logprobOf(`${i}:${token}`);
    const alternatives = Array.from({ length: top }, (_, k) =>
      k === 0
        ? { token, logprob, bytes: bytesOf(token) }
        : { token: `${token}~${k}`, logprob: logprob - k, bytes: bytesOf(`${token}~${k}`) },
    );
    return { token, logprob, bytes: bytesOf(token), top_logprobs: alternatives };
  });
  return { content, refusal: null };
}

/**
 * Every answer a request asks for (`n`): the first as built, the others the same turn told apart
 * by a closing note (tool calls and structured outputs repeat as they are, staying valid), each
 * with its log probabilities when `logprobs` is true.
 */
export function answersFor(request: ChatRequest, first: Reply): Reply[] {
  const n = typeof request.n === "number" && request.n > 1 ? Math.min(request.n, MAX_CHOICES) : 1;
  const plainText = first.toolCalls.length === 0 && !request.response_format?.type?.startsWith("json");
  const replies = Array.from({ length: n }, (_, i): Reply => {
    if (i === 0 || !plainText || first.content === null || first.finishReason === "length") return { ...first };
    const note = ` [answer ${i + 1} of ${n}]`;
    return { ...first, content: first.content + note, completionTokens: first.completionTokens + countTokens(note) };
  });
  if (request.logprobs !== true) return replies;
  const top = Math.min(Math.max(Number(request.top_logprobs ?? 0), 0), MAX_TOP_LOGPROBS);
  return replies.map((reply) => ({ ...reply, logprobs: logprobsOf(reply.content ?? "", top) }));
}
