import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { contentTypeOfKey, objectKey } from "./object-key";
import type { ObjectStorage, StoredImage, StoredObject } from "./object-storage";

/** Objects as files in one directory, named by their keys. */
export class LocalObjectStorage implements ObjectStorage {
  private readonly dir: string;

  constructor(
    dir: string,
    private readonly publicUrl: string,
  ) {
    this.dir = resolve(dir);
  }

  async put(data: Buffer, contentType: string): Promise<StoredObject> {
    const key = objectKey(data, contentType);
    if (!(await this.exists(key))) {
      await mkdir(this.dir, { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temporary = join(this.dir, `.${key}.${randomBytes(6).toString("hex")}.tmp`);
      await writeFile(temporary, data);
      await rename(temporary, join(this.dir, key));
    }
    return { key, url: this.urlOf(key) };
  }

  async exists(key: string): Promise<boolean> {
    if (!contentTypeOfKey(key)) return false;
    return stat(join(this.dir, key)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  urlOf(key: string): string {
    return `${this.publicUrl.replace(/\/+$/, "")}/${key}`;
  }

  read(key: string): Promise<StoredImage | null> {
    return readLocalObject(this.dir, key);
  }
}

/**
 * Reads a stored object for serving. Only strings shaped like keys are looked up, so no path can
 * reach outside the directory. Null when there is no such object.
 */
export async function readLocalObject(dir: string, key: string): Promise<StoredImage | null> {
  const contentType = contentTypeOfKey(key);
  if (!contentType) return null;
  const data = await readFile(join(resolve(dir), key)).catch(() => null);
  return data ? { data, contentType } : null;
}
