import { posix } from "node:path";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** `POST /v1/chat/completions`: OpenAI's chat completions, answered by an agent run. */
export const CHAT_COMPLETIONS_PATH = "/v1/chat/completions" satisfies RunPath;
/** `POST /v1/responses` (and `/v1/responses/{id}` to read one): OpenAI's Responses API, answered by a response run. */
export const RESPONSES_PATH = "/v1/responses" satisfies RunPath;
/** `POST /v1/embeddings`: OpenAI's embeddings, answered by an embedding run. */
export const EMBEDDINGS_PATH = "/v1/embeddings" satisfies RunPath;
/** `GET /v1/models` and `GET /v1/models/{model}`: OpenAI's model list. */
export const OPENAI_MODELS_PATH = "/v1/models";

/** Swarms' own catalogue, under OpenAI's models path but answered in the `/v1` shape. */
const SWARMS_MODELS_PATH = "/v1/models/available";

/**
 * The first segment after `/v1` of every path of OpenAI's API that its SDKs call (the `openai`
 * package's resources). Apiary serves some of them; the others still answer in OpenAI's error shape,
 * so that an OpenAI client calling one prints why it failed rather than "404 status code (no body)".
 */
const OPENAI_RESOURCES = new Set([
  "assistants",
  "audio",
  "batches",
  "chat",
  "chatkit",
  "completions",
  "containers",
  "conversations",
  "embeddings",
  "evals",
  "files",
  "fine_tuning",
  "images",
  "models",
  "moderations",
  "realtime",
  "responses",
  "skills",
  "threads",
  "uploads",
  "vector_stores",
  "videos",
]);

/**
 * Whether a request is on a path of OpenAI's API, whose errors OpenAI's SDKs must be able to read
 * (`{error: {...}}`): the ones served here (chat completions, embeddings, the model list) and every other path
 * under one of OpenAI's resources (a 401, 404 or 405 an OpenAI client meets), but not the Swarms
 * catalogue, nor a path whose dot segments lead out of them. Compared as the router matches: any
 * case, trailing slash or not.
 */
export function isOpenAiPath(path: string): boolean {
  const p = posix.normalize(path).toLowerCase().replace(/\/+$/, "");
  if (p === SWARMS_MODELS_PATH) return false;
  const [root, version, resource] = p.split("/");
  return root === "" && version === "v1" && OPENAI_RESOURCES.has(resource);
}
