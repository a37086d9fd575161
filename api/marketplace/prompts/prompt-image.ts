import { ImageError, objectKey, type ObjectStorage } from "../../../shared/storage";
import { PlatformError, platformValidationError } from "../../platform-error";
import { fetchListingImage } from "./fetch-listing-image";
import type { PromptFields } from "./prompt-record";

export interface PromptImage {
  image_url: string | null;
  /** The storage key when the image is in our storage. */
  file_path: string | null;
}

function storageUnavailable(): PlatformError {
  return new PlatformError(
    503,
    "Service unavailable",
    "The image storage is unavailable; nothing was stored, try again shortly",
    {},
    "STORAGE_UNAVAILABLE",
  );
}

/** The image field that wins when several are given (see `resolvePromptImage`), or null for none. */
export function imageFieldOf(fields: Partial<PromptFields>): "image_base64" | "file_path" | "image_url" | null {
  if (fields.image_base64) return "image_base64";
  if (fields.file_path) return "file_path";
  return fields.image_url !== undefined && fields.image_url !== null ? "image_url" : null;
}

/**
 * The URL `resolvePromptImage` will give the image, known before anything is stored (storage keys
 * are content hashes): what a token's metadata will point to. Undefined when no image field was given.
 */
export function plannedPromptImageUrl(
  storage: ObjectStorage,
  fields: Partial<PromptFields>,
): string | null | undefined {
  if (fields.image_base64) return storage.urlOf(objectKey(fields.image_base64.data, fields.image_base64.contentType));
  if (fields.file_path) return storage.urlOf(fields.file_path);
  if (fields.image_url !== undefined || fields.file_path !== undefined || fields.image_base64 !== undefined)
    return fields.image_url || null;
  return undefined;
}

/**
 * Where a prompt's image is, from whichever of the fields was given (first wins): `image_base64`
 * is stored in the object storage, `file_path` must name an object already stored there,
 * `image_url` is fetched once and its copy stored (`fetchListingImage`; an empty one clears the
 * image). Undefined when none was given.
 */
export async function resolvePromptImage(
  storage: ObjectStorage,
  fields: Partial<PromptFields>,
): Promise<PromptImage | undefined> {
  if (fields.image_base64) {
    const { data, contentType } = fields.image_base64;
    try {
      const stored = await storage.put(data, contentType);
      return { image_url: stored.url, file_path: stored.key };
    } catch (err) {
      if (err instanceof ImageError) throw platformValidationError([{ path: "image_base64", message: err.message }]);
      throw storageUnavailable();
    }
  }
  if (fields.file_path) {
    const found = await storage.exists(fields.file_path).catch(() => {
      throw storageUnavailable();
    });
    if (!found)
      throw platformValidationError([
        { path: "file_path", message: "'file_path' names no image in this service's storage" },
      ]);
    return { image_url: storage.urlOf(fields.file_path), file_path: fields.file_path };
  }
  if (fields.image_url) return fetchListingImage(storage, fields.image_url, "image_url");
  if (fields.image_url !== undefined || fields.file_path !== undefined || fields.image_base64 !== undefined) {
    return { image_url: null, file_path: null };
  }
  return undefined;
}
