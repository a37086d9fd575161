import { BadRequestError } from "../../shared/errors";

/** zlib (gzip, deflate) and brotli report input they cannot decode with codes like these. */
const DECOMPRESSION_CODES = /^(Z_|ERR__ERROR_)/;

/**
 * koa-body's `onError`: a parser error becomes the client's error. A body whose
 * `Content-Encoding` does not match its bytes fails inside zlib with an error that carries no
 * HTTP status, which would otherwise be answered as a 500.
 */
export function rethrowBodyParseError(err: Error): never {
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && DECOMPRESSION_CODES.test(code)) {
    throw new BadRequestError(
      `The request body could not be decoded as its Content-Encoding says: ${err.message}`,
      {},
      "INVALID_BODY",
    );
  }
  throw err;
}
