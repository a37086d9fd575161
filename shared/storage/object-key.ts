import { createHash } from "node:crypto";
import { ImageError } from "./image-error";
import { IMAGE_TYPES, contentTypeOfExtension, type ImageContentType } from "./image-types";

/** `<sha-256 of the bytes>.<extension>`: the same image is stored once, and a key can name nothing else. */
const KEY = /^[0-9a-f]{64}\.(png|jpg|webp|gif)$/;

/** The key an object is stored under: its content hash and the extension of its type. */
export function objectKey(data: Buffer, contentType: string): string {
  const extension = IMAGE_TYPES[contentType as ImageContentType];
  if (!extension) throw new ImageError("unsupported_type", "Only PNG, JPEG, WebP and GIF images are stored");
  return `${createHash("sha256").update(data).digest("hex")}.${extension}`;
}

/** Whether a string is a key this storage could have made (no paths, no traversal). */
export function isObjectKey(value: string): boolean {
  return KEY.test(value);
}

/** The content type of a valid key, or null for anything else. */
export function contentTypeOfKey(key: string): ImageContentType | null {
  return isObjectKey(key) ? contentTypeOfExtension(key.slice(key.lastIndexOf(".") + 1)) : null;
}
