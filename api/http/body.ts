import { readFile, rm } from "node:fs/promises";
import type { Context, Middleware } from "koa";
import { koaBody, type KoaBodyMiddlewareOptions } from "koa-body";
import { config } from "../../shared/config";
import { BadRequestError, ValidationError } from "../../shared/errors";
import { ImageError } from "../../shared/storage";
import { PlatformError } from "../platform-error";
import { clientLeft, readBodyUnlessClientLeaves, requestAborted } from "./client-left";
import { findJsonHazard, MAX_JSON_DEPTH } from "../../shared/json/json-hazards";
import type { PlatformState } from "./state";

/** A size in the `BODY_LIMIT` style (`32kb`, `10mb`, or plain bytes) in bytes. */
export function byteCount(size: string): number {
  const [, n, unit] = /^(\d+)\s*(kb|mb)?$/i.exec(size.trim()) ?? [];
  if (n === undefined) throw new Error(`Not a size: ${size}`);
  return Number(n) * (unit ? (unit.toLowerCase() === "kb" ? 1024 : 1024 * 1024) : 1);
}

/** `application/json` and every `+json` type: the ones the guard lets through must be the ones parsed. */
const JSON_TYPES = ["json", "+json"];

/** zlib (gzip, deflate) and brotli report input they cannot decode with codes like these. */
const DECOMPRESSION_CODES = /^(Z_|ERR__ERROR_)/;

/** raw-body's errors for a request stream it could not read to the end: gone before, or going during, the read. */
const CUT_SHORT = new Set(["stream.not.readable", "request.aborted"]);

/**
 * koa-body's `onError`: a parser error becomes the client's error. A body whose
 * `Content-Encoding` does not match its bytes fails inside zlib with an error that carries no
 * HTTP status, which would otherwise be answered as a 500. A client that closed its connection
 * before its body was read (the body is read after authentication), or while it was, is
 * `REQUEST_ABORTED`: `raw-body` reports the first as a 500, logged as our error, for a request
 * nobody is waiting on, and the second as a bare 400 (see also `readBodyUnlessClientLeaves`).
 */
export function rethrowBodyParseError(err: Error, ctx?: { req: { destroyed: boolean; complete: boolean } }): never {
  // Destroyed before the whole body came: the client left. (A request whose body was read in full
  // is destroyed too, and reading it again is our bug, which stays a 500.)
  if (ctx !== undefined && clientLeft(ctx.req)) {
    const type = (err as { type?: unknown }).type;
    if (typeof type === "string" && CUT_SHORT.has(type)) throw requestAborted();
  }
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

/** A koa-body parser, run for its effect on `ctx.request` (it never calls on). */
type BodyParser = (ctx: Context, next: () => Promise<void>) => Promise<unknown>;

/**
 * Runs a body parser as every app must: a request that announces a body not yet all arrived is
 * read under `readBodyUnlessClientLeaves` (the client leaving, or taking longer than
 * `readTimeoutMs` plus its size's allowance, capped at `maxBytes`, ends it); one with no body, or
 * whose body is already all here, is parsed at once.
 */
export async function readBody(
  ctx: Context,
  parse: BodyParser,
  limits: { maxBytes: number; readTimeoutMs?: number },
): Promise<void> {
  const announcesBody = ctx.request.length > 0 || ctx.get("transfer-encoding") !== "";
  if (!announcesBody || ctx.req.complete) {
    await parse(ctx, async () => undefined);
    return;
  }
  await readBodyUnlessClientLeaves(ctx.req, () => parse(ctx, async () => undefined).then(() => undefined), {
    res: ctx.res,
    ms: limits.readTimeoutMs ?? config.http.bodyReadTimeoutMs,
    maxBytes: limits.maxBytes,
  });
}

/** What both apps parse: lenient JSON (any value, not only objects and arrays), never url-encoded forms or text. */
const JSON_PARSING: Partial<KoaBodyMiddlewareOptions> = {
  json: true,
  jsonStrict: false,
  urlencoded: false,
  text: false,
};

/**
 * `/v1`: parses JSON bodies up to the size limit. A body in another content type is refused with a
 * 400 and a clear message rather than silently read as empty. A parsed body nested deeper than
 * `MAX_JSON_DEPTH` is refused (400) before anything recurses over it, and a string or key Postgres
 * cannot store (a NUL character, an unpaired surrogate) is a validation error at its location.
 */
export function jsonBody(limit: string, readTimeoutMs?: number): Middleware {
  const parse = koaBody({
    ...JSON_PARSING,
    jsonLimit: limit,
    jsonTypes: JSON_TYPES,
    multipart: false,
    onError: rethrowBodyParseError,
  });
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get("transfer-encoding") !== "";
    if (hasBody && ["POST", "PUT", "PATCH"].includes(ctx.method) && !ctx.is(JSON_TYPES)) {
      throw new BadRequestError("Request body must be JSON: send Content-Type: application/json", {}, "INVALID_BODY");
    }
    await readBody(ctx, parse, { maxBytes: byteCount(limit), readTimeoutMs });
    refuseHazards(ctx.request.body);
    await next();
  };
}

function refuseHazards(body: unknown): void {
  const hazard = findJsonHazard(body);
  if (!hazard) return;
  if (hazard.kind === "depth")
    throw new BadRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, {}, "INVALID_BODY");
  const where = hazard.path.slice(0, hazard.inKey ? -1 : undefined).join(".") || "body";
  const msg = hazard.inKey
    ? `'${where}' has a key with a NUL character or an unpaired surrogate`
    : `'${where}' must not contain NUL characters or unpaired surrogates`;
  throw new ValidationError([{ loc: ["body", ...hazard.path], msg, type: "string.unstorable" }]);
}

interface UploadedFile {
  filepath: string;
}

function filesOf(value: unknown): UploadedFile[] {
  if (!value) return [];
  return (Array.isArray(value) ? value : [value]) as UploadedFile[];
}

/**
 * The platform: parses a body given as JSON or `multipart/form-data` (fields by the same names;
 * one image file, capped at `IMAGE_MAX_BYTES`). The file's bytes are left in `ctx.state.upload`
 * and its temporary copy is removed at once. Other content types are a 400.
 */
export function platformBody(options: {
  fileField: string;
  maxFileBytes?: number;
  readTimeoutMs?: number;
}): Middleware<PlatformState> {
  const maxFileBytes = options.maxFileBytes ?? config.platform.imageMaxBytes;
  const parse = koaBody({
    ...JSON_PARSING,
    jsonLimit: config.http.bodyLimit,
    multipart: true,
    formidable: {
      maxFiles: 1,
      maxFileSize: maxFileBytes,
      maxTotalFileSize: maxFileBytes,
      allowEmptyFiles: false,
      maxFields: 50,
      // A base64 image may come as a text field: room for the largest image, base64-encoded.
      maxFieldsSize: Math.ceil(maxFileBytes * 1.4) + 64 * 1024,
    },
    onError: (err: Error & { httpCode?: unknown }, ctx) => {
      // formidable's "Request aborted": the client left in the middle of its upload.
      if (clientLeft(ctx.req)) throw requestAborted();
      if (err?.httpCode === 413 || /maxFileSize|maxTotalFileSize/i.test(String(err?.message))) {
        throw new ImageError("too_large", `The image is larger than the ${maxFileBytes}-byte limit`);
      }
      if (typeof err?.httpCode === "number" && err.httpCode < 500)
        throw new PlatformError(400, "Bad request", `Malformed multipart body: ${err.message}`);
      rethrowBodyParseError(err, ctx); // bytes that do not match their Content-Encoding: a 400, not a 500
    },
  });
  return async (ctx, next) => {
    if (!ctx.is("json", "+json", "multipart")) {
      throw new PlatformError(
        400,
        "Bad request",
        "Send the body as application/json or multipart/form-data",
        {},
        "INVALID_BODY",
      );
    }
    await readBody(ctx, parse, {
      maxBytes: byteCount(config.http.bodyLimit) + Math.ceil(maxFileBytes * 1.4) + 64 * 1024,
      readTimeoutMs: options.readTimeoutMs,
    });
    const all = Object.values(ctx.request.files ?? {}).flatMap(filesOf);
    try {
      const [file] = filesOf(ctx.request.files?.[options.fileField]);
      ctx.state.upload = file ? await readFile(file.filepath) : null;
    } finally {
      await Promise.all(all.map((f) => rm(f.filepath, { force: true })));
    }
    await next();
  };
}
