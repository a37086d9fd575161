import type { IncomingMessage, ServerResponse } from "node:http";
import type { Writable } from "node:stream";
import { AppError, BadRequestError } from "../../shared/errors";

/** The error of a request whose client left before its body was read (nobody will see the answer). */
export function requestAborted(): BadRequestError {
  return new BadRequestError("The client closed the connection before its body was read", {}, "REQUEST_ABORTED");
}

/** Each this many bytes a body announces add `SECOND_PER_BYTES` to its deadline (64 KB a second, about 0.5 Mbit/s). */
const ALLOWANCE_BYTES = 64 * 1024;
const SECOND_PER_BYTES = 1_000;

/** The error of a request whose body did not arrive in time. */
function bodyTooSlow(ms: number): AppError {
  return new AppError(408, "REQUEST_TIMEOUT", `The request body did not arrive within ${ms / 1000} s`);
}

/**
 * Whether the client left before sending its whole request. Node marks a request `complete` once
 * its body has arrived, whether or not anyone read it, and destroys it when the connection goes.
 */
export function clientLeft(req: Pick<IncomingMessage, "destroyed" | "complete">): boolean {
  return req.destroyed && !req.complete;
}

/**
 * Runs a body parser (`parse`) on `req` and settles with `REQUEST_ABORTED` as soon as the client
 * leaves before its whole body came, whatever the parser makes of it. Parsers hear of a client
 * that left only through the request's own events, and two never do: a compressed body is read
 * through a zlib stream piped from the request, and a pipe does not pass its source's destruction
 * on, so the zlib stream waits for bytes that never come; formidable (multipart) starts listening
 * only after an asynchronous step, so a client that left meanwhile is never heard of. Either way
 * the request would hang, answered and logged by nobody. The streams the parser piped the body
 * into are destroyed with the same error, so their reads end too and nothing is left waiting.
 */
export async function readBodyUnlessClientLeaves(
  req: IncomingMessage,
  parse: () => Promise<void>,
  deadline: { res: ServerResponse; ms: number; maxBytes: number },
): Promise<void> {
  if (clientLeft(req)) throw requestAborted();
  // The request does not say what it is piped into; the decoders are caught as they are piped.
  // Only a compressed body is piped (into zlib): a plain one is read from the request itself, so
  // most requests keep the prototype's `pipe` and their shape.
  const piped: Writable[] = [];
  const encoded = (req.headers["content-encoding"] ?? "identity") !== "identity";
  if (encoded) {
    const pipe = req.pipe;
    req.pipe = function <T extends NodeJS.WritableStream>(this: IncomingMessage, dest: T, options?: { end?: boolean }) {
      piped.push(dest as unknown as Writable);
      return pipe.call(this, dest, options) as T;
    };
  }
  let onClose: () => void = () => undefined;
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const left = new Promise<never>((_, reject) => {
    onClose = () => {
      if (clientLeft(req)) reject(requestAborted());
    };
    // A client sending its body a byte at a time would hold its socket and this request forever
    // (the server has no request timeout: synchronous runs may take minutes to answer). A large
    // body gets longer, so a slow but steady link is not cut off.
    // The allowance counts no more than the parser would read: the announced length is the client's to choose.
    const announced = Number(req.headers["content-length"]);
    const bytes = Number.isFinite(announced) && announced > 0 ? Math.min(announced, deadline.maxBytes) : 0;
    const ms = deadline.ms + SECOND_PER_BYTES * Math.ceil(bytes / ALLOWANCE_BYTES);
    timer = setTimeout(() => {
      timedOut = true;
      reject(bodyTooSlow(ms));
    }, ms);
  });
  req.once("close", onClose);
  const parsing = parse();
  parsing.catch(() => undefined); // settles after the race when the client left first
  try {
    await Promise.race([parsing, left]);
  } finally {
    clearTimeout(timer);
    req.off("close", onClose);
    if (encoded) delete (req as { pipe?: unknown }).pipe; // the prototype's own again
    if (clientLeft(req) || timedOut) for (const stream of piped) stream.destroy(requestAborted());
    if (timedOut) {
      // The rest of the body is not waited for: the connection closes once the 408 is written.
      deadline.res.shouldKeepAlive = false;
      // Once answered, Node no longer ties the request to its socket, so its closing does not end
      // the request: a multipart parser would keep its temporary file open for good.
      deadline.res.once("close", () => req.destroy());
    }
  }
}
