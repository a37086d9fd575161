import { config } from "../config";
import { LocalObjectStorage } from "./local-storage";
import type { ObjectStorage } from "./object-storage";
import { S3ObjectStorage } from "./s3-storage";

export type StorageSettings = typeof config.storage;

/**
 * The configured object storage: an S3-compatible bucket when `S3_ENDPOINT` and `S3_BUCKET` are
 * set, else a local directory the platform serves at `/uploads/<key>`.
 */
export function createObjectStorage(settings: StorageSettings = config.storage): ObjectStorage {
  return settings.s3 ? new S3ObjectStorage(settings.s3) : new LocalObjectStorage(settings.dir, settings.publicUrl);
}
