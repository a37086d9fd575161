import { config } from "../config";
import { ImageError } from "./image-error";
import { extensionOf, sniffImageType, type ImageContentType, type ImageExtension } from "./image-types";

/** An accepted image: its bytes and the type read from those bytes. */
export interface DecodedImage {
  data: Buffer;
  contentType: ImageContentType;
  extension: ImageExtension;
}

const DATA_URL = /^data:([^,;]*)((?:;[^,;]*)*),/i;
// Node's base64 decoder silently skips characters outside the alphabet, so check first.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function stripDataUrl(input: string): string {
  const match = DATA_URL.exec(input);
  if (!match)
    throw new ImageError(
      "invalid_data_url",
      "The image data URL is malformed: expected data:image/<type>;base64,<data>",
    );
  const [, mediaType, params] = match;
  if (!/^image\//i.test(mediaType))
    throw new ImageError("invalid_data_url", "The image data URL must declare an image/* media type");
  if (!/;base64$/i.test(params))
    throw new ImageError("invalid_data_url", "The image data URL must be base64-encoded (;base64,)");
  return input.slice(match[0].length);
}

function decodeBase64(text: string, maxBytes: number): Buffer {
  const compact = text.replace(/\s+/g, "");
  if (compact.length === 0) throw new ImageError("empty", "The image is empty");
  const urlSafe = !BASE64.test(compact);
  if (urlSafe && !BASE64URL.test(compact)) throw new ImageError("invalid_base64", "The image is not valid base64");
  if (compact.replace(/=+$/, "").length % 4 === 1)
    throw new ImageError("invalid_base64", "The image is not valid base64 (truncated)");
  // Refuse before decoding: the decoded size is known from the text's length.
  if (Math.floor((compact.replace(/=+$/, "").length * 3) / 4) > maxBytes) throw tooLarge(maxBytes);
  return Buffer.from(compact, urlSafe ? "base64url" : "base64");
}

function tooLarge(maxBytes: number): ImageError {
  return new ImageError("too_large", `The image is larger than the ${maxBytes}-byte limit`);
}

/**
 * Accepts an image given as a data URL (`data:image/...;base64,`), raw base64, or raw bytes, and
 * returns its bytes with the type sniffed from its magic bytes: PNG, JPEG, WebP or GIF only. The
 * declared type of a data URL is never trusted. Throws `ImageError` naming the broken rule.
 */
export function decodeImage(input: string | Buffer, maxBytes: number = config.platform.imageMaxBytes): DecodedImage {
  let data: Buffer;
  if (Buffer.isBuffer(input)) {
    data = input;
  } else {
    const text = input.trim();
    data = decodeBase64(/^data:/i.test(text) ? stripDataUrl(text) : text, maxBytes);
  }
  if (data.length === 0) throw new ImageError("empty", "The image is empty");
  if (data.length > maxBytes) throw tooLarge(maxBytes);
  const contentType = sniffImageType(data);
  if (!contentType) throw new ImageError("unsupported_type", "The image must be a PNG, JPEG, WebP or GIF file");
  return { data, contentType, extension: extensionOf(contentType) };
}
