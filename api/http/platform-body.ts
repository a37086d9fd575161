import { readFile, rm } from "node:fs/promises";
import type { Middleware } from "koa";
import { koaBody } from "koa-body";
import { rethrowBodyParseError } from "./body-parse-errors";
import { config } from "../../shared/config";
import { ImageError } from "../../shared/storage";
import { PlatformError } from "../platform-error";

interface UploadedFile {
  filepath: string;
}

function filesOf(value: unknown): UploadedFile[] {
  if (!value) return [];
  return (Array.isArray(value) ? value : [value]) as UploadedFile[];
}

/**
 * Parses a platform request body given as JSON or `multipart/form-data` (fields by the same
 * names; one image file, capped at `IMAGE_MAX_BYTES`). The file's bytes are left in
 * `ctx.state.upload` and its temporary copy is removed at once. Other content types are a 400.
 */
export function platformBody(options: { fileField: string; maxFileBytes?: number }): Middleware {
  const maxFileBytes = options.maxFileBytes ?? config.platform.imageMaxBytes;
  const parse = koaBody({
    json: true,
    jsonStrict: false,
    jsonLimit: config.http.bodyLimit,
    urlencoded: false,
    text: false,
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
    onError: (err: any) => {
      if (err?.httpCode === 413 || /maxFileSize|maxTotalFileSize/i.test(String(err?.message))) {
        throw new ImageError("too_large", `The image is larger than the ${maxFileBytes}-byte limit`);
      }
      if (typeof err?.httpCode === "number" && err.httpCode < 500)
        throw new PlatformError(400, "Bad request", `Malformed multipart body: ${err.message}`);
      rethrowBodyParseError(err); // bytes that do not match their Content-Encoding: a 400, not a 500
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
    await parse(ctx, async () => undefined);
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
