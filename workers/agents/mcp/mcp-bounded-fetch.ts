import { MCP_RESPONSE_MAX_BYTES } from "../../../shared/limits/outside-content";

/** Statuses whose answer has no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `inner` with every answer's body ended in error once it passes `MCP_RESPONSE_MAX_BYTES`, so a
 * server answering without end is never held in memory whole: the call fails as a broken
 * connection does (or at its timeout, when the SDK waits for a stream to resume).
 */
export function boundedFetch(inner: typeof fetch, maxBytes = MCP_RESPONSE_MAX_BYTES): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (!res.body || NULL_BODY.has(res.status)) return res;
    let size = 0;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > maxBytes) controller.error(new Error(`the server's answer is over ${maxBytes} bytes`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
