import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimulatorState } from "./chat-handler";
import { apiKeyOf } from "./chat-handler";
import { base64Vector, embeddingVector, type EmbeddingInput } from "./embedding-vectors";
import { sendError, sendInternalError, sendModelNotFound, sendSimulatedError } from "./errors";
import { readBody, sendJson } from "./http-io";
import { recordRequest } from "./journal";
import { embeddingModelOf, isKnownChatModel } from "./models";
import { runAt } from "./timing";
import { countTokens } from "./tokens";

// OpenAI's bounds on one embeddings request.
const MAX_INPUTS = 2_048;
const BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/** A refusal: `unknownModel` (OpenAI's `model_not_found` for a name it does not serve), else a status and message. */
type Problem = { message: string; param: string | null; status?: number; unknownModel?: string };

interface EmbeddingRequest {
  model: string;
  inputs: EmbeddingInput[];
  size: number;
  fullSize: number;
  format: "float" | "base64";
}

const isTokenList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length > 0 && value.every((t) => Number.isInteger(t) && t >= 0);

/** The request's inputs, one per vector, or undefined when `input` is none of OpenAI's four shapes. */
function inputsOf(input: unknown): EmbeddingInput[] | undefined {
  if (typeof input === "string") return input ? [input] : undefined;
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_INPUTS) return undefined;
  if (input.every((item) => typeof item === "string" && item.length > 0)) return input as string[];
  if (isTokenList(input)) return [input];
  if (input.every(isTokenList)) return input as number[][];
  return undefined;
}

/** The request as the simulator answers it, or OpenAI's refusal of it. */
function parseEmbeddingRequest(raw: string): { body: unknown; request?: EmbeddingRequest; problem?: Problem } {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { body: raw, problem: { message: "We could not parse the JSON body of your request.", param: null } };
  }
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.model !== "string" || !b.model)
    return { body, problem: { message: "you must provide a model parameter", param: "model" } };
  const model = embeddingModelOf(b.model);
  if (!model && !isKnownChatModel(b.model))
    return { body, problem: { message: "", param: "model", unknownModel: b.model } };
  if (!model)
    return {
      body,
      problem: {
        status: 404,
        message: `The model '${b.model}' does not exist or is not an embedding model`,
        param: "model",
      },
    };
  const inputs = inputsOf(b.input);
  if (!inputs)
    return {
      body,
      problem: {
        message: `'input' must be a non-empty string, or a list of at most ${MAX_INPUTS} strings, token ids or lists of token ids`,
        param: "input",
      },
    };
  let size = model.dimensions;
  if (b.dimensions !== undefined && b.dimensions !== null) {
    const n = b.dimensions;
    if (!model.shortens)
      return { body, problem: { message: "This model does not support specifying dimensions.", param: "dimensions" } };
    if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > model.dimensions)
      return { body, problem: { message: `'dimensions' must be from 1 to ${model.dimensions}`, param: "dimensions" } };
    size = n as number;
  }
  const format = b.encoding_format ?? "float";
  if (format !== "float" && format !== "base64")
    return { body, problem: { message: "'encoding_format' must be 'float' or 'base64'", param: "encoding_format" } };
  return { body, request: { model: b.model, inputs, size, fullSize: model.dimensions, format } };
}

/**
 * `POST /v1/embeddings`: deterministic unit vectors of the model's size (or `dimensions`), one per
 * input, in the encoding asked for; usage counted with the simulator's tokenizer (a token list
 * counts its ids). A `sim_error` field, or a script whose `contains` is in a text input, fails it
 * as it fails a chat request; the key's rate limit counts its tokens.
 */
export function handleEmbeddings(req: IncomingMessage, res: ServerResponse, state: SimulatorState): void {
  const at = new Date().toISOString();
  const startedAt = performance.now();
  const apiKey = apiKeyOf(req);
  readBody(req, BODY_LIMIT_BYTES, (raw) => {
    try {
      if (raw === undefined) {
        if (res.headersSent || res.destroyed) return;
        recordRequest(state.embeddingJournal, { at, body: null, status: 413 });
        return sendError(res, 413, "Request body too large.", null, { connection: "close" });
      }
      const { body, request, problem } = parseEmbeddingRequest(raw);
      if (!request) {
        const status = problem?.status ?? 400;
        recordRequest(state.embeddingJournal, { at, body, status: problem?.unknownModel ? 404 : status });
        if (problem?.unknownModel) return sendModelNotFound(res, problem.unknownModel);
        return sendError(res, status, problem!.message, problem!.param);
      }
      answer(res, state, { at, body, request, startedAt, apiKey });
    } catch (err) {
      sendInternalError(res, err);
    }
  });
}

function answer(
  res: ServerResponse,
  state: SimulatorState,
  call: { at: string; body: unknown; request: EmbeddingRequest; startedAt: number; apiKey: string },
): void {
  const { at, body, request } = call;
  const texts = request.inputs.filter((input): input is string => typeof input === "string");
  const script = [...state.scripts].reverse().find((rule) => texts.some((text) => text.includes(rule.contains)));
  const simError = (body as { sim_error?: unknown }).sim_error;
  const error = Number.isInteger(simError) ? (simError as number) : script?.error;
  const deadline = call.startedAt + (script?.latency_ms ?? 0);
  if (error !== undefined) {
    recordRequest(state.embeddingJournal, { at, body, status: error });
    return runAt(deadline, res, () => sendSimulatedError(res, error));
  }
  const tokens = request.inputs.reduce(
    (sum, input) => sum + (typeof input === "string" ? countTokens(input) : input.length),
    0,
  );
  const rate = state.rateLimits.take(call.apiKey, tokens);
  if (rate) for (const [name, value] of Object.entries(rate.headers)) res.setHeader(name, value!);
  if (rate?.retryAfterMs !== undefined) {
    recordRequest(state.embeddingJournal, { at, body, status: 429 });
    return sendError(res, 429, `Rate limit reached for requests: please try again in ${rate.retryAfterMs}ms.`);
  }
  recordRequest(state.embeddingJournal, { at, body, status: 200 });
  const data = request.inputs.map((input, index) => {
    const vector = embeddingVector(request.model, input, request.fullSize, request.size);
    return {
      object: "embedding",
      index,
      embedding: request.format === "base64" ? base64Vector(vector) : Array.from(vector),
    };
  });
  const usage = { prompt_tokens: tokens, total_tokens: tokens };
  runAt(deadline, res, () => sendJson(res, 200, { object: "list", data, model: request.model, usage }));
}
