import type { Context } from "koa";

/**
 * The answer header naming the marketplace prompts a request published (comma-separated ids, in
 * agent order). A header rather than a body field, so every response body stays exactly the
 * hosted API's and no client parsing it can trip over an extra field; it is on every answer of an
 * accepted request (success, 202, stream, run failure) and replays with an idempotent answer.
 */
const PUBLISHED_PROMPTS_HEADER = "X-Marketplace-Prompt-Ids";

/** A service's `onPublished` that puts the ids in the answer's header. */
export function announcePublished(ctx: Context): (promptIds: string[]) => void {
  return (promptIds) => {
    if (promptIds.length) ctx.set(PUBLISHED_PROMPTS_HEADER, promptIds.join(","));
  };
}
