import { config } from "../../shared/config";
import { createObjectStorage, type ObjectStorage, type StorageSettings } from "../../shared/storage";

/**
 * The outside services the platform's routes use, built once from the configuration. Tests build
 * their own (a temporary storage directory, a local price endpoint, tiny daily limits) and pass
 * them to `createPlatformApp`, so nothing global is edited.
 */
export interface PlatformServices {
  storage: ObjectStorage;
  /** The local directory served at `/uploads`, or null when images live in a bucket. */
  uploadsDir: string | null;
}

export interface PlatformSettings {
  storage: StorageSettings;
}

export function createPlatformServices(settings: PlatformSettings = { storage: config.storage }): PlatformServices {
  return {
    storage: createObjectStorage(settings.storage),
    uploadsDir: settings.storage.s3 ? null : settings.storage.dir,
  };
}
