import { posix } from "node:path";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** `POST /v1/chat/completions`: OpenAI's chat completions, answered by an agent run. */
export const CHAT_COMPLETIONS_PATH = "/v1/chat/completions" satisfies RunPath;
/** `GET /v1/models` and `GET /v1/models/{model}`: OpenAI's model list. */
export const OPENAI_MODELS_PATH = "/v1/models";

/** Swarms' own catalogue, under OpenAI's models path but answered in the `/v1` shape. */
const SWARMS_MODELS_PATH = "/v1/models/available";

/**
 * Whether a request is on an OpenAI-compatible path, whose errors OpenAI's SDKs must be able to
 * read (`{error: {...}}`): chat completions and the model list, and any path under them (an unknown
 * one is still a 404 or 405 an OpenAI client meets), but not the Swarms catalogue, nor a path whose
 * dot segments lead out of them. Compared as the router matches: any case, trailing slash or not.
 */
export function isOpenAiPath(path: string): boolean {
  const p = posix.normalize(path).toLowerCase().replace(/\/+$/, "");
  if (p === SWARMS_MODELS_PATH) return false;
  return [CHAT_COMPLETIONS_PATH, OPENAI_MODELS_PATH].some((base) => p === base || p.startsWith(`${base}/`));
}
