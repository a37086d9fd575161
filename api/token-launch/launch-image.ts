import { decodeImage, objectKey, type DecodedImage, type ObjectStorage } from "../../shared/storage";
import { platformValidationError } from "../platform-error";

/** An image checked but not yet stored: a URL to use as is, or bytes to upload. */
export type CheckedImage = { url: string } | { image: DecodedImage } | null;

const HTTP_URL = /^https?:\/\//i;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname;
  } catch {
    return false;
  }
}

/**
 * Checks the token launch's image without storing it: an http(s) URL is used as is; a data URL, raw base64 or
 * an uploaded file must be a PNG, JPEG, WebP or GIF within the size cap (sniffed from the bytes).
 * A file wins over the text field. Throws ImageError or a 400 validation error.
 */
export function checkLaunchImage(text: string | null | undefined, file: Buffer | null): CheckedImage {
  if (file) return { image: decodeImage(file) };
  if (!text) return null;
  if (HTTP_URL.test(text)) {
    if (!isHttpUrl(text))
      throw platformValidationError([{ path: "image", message: "image is not a valid http(s) URL" }]);
    return { url: text };
  }
  return { image: decodeImage(text) };
}

/** The URL the token's metadata will point to, known before anything is stored (keys are content hashes). */
export function plannedLaunchImageUrl(checked: CheckedImage, storage: ObjectStorage): string | null {
  if (!checked) return null;
  return "url" in checked ? checked.url : storage.urlOf(objectKey(checked.image.data, checked.image.contentType));
}

/** The URL the token's metadata points to: the given URL, or the stored image's. */
export async function storeLaunchImage(checked: CheckedImage, storage: ObjectStorage): Promise<string | null> {
  if (!checked) return null;
  if ("url" in checked) return checked.url;
  return (await storage.put(checked.image.data, checked.image.contentType)).url;
}
