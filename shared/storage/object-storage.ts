/** Where an object ended up: its public URL and its key. */
export interface StoredObject {
  url: string;
  key: string;
}

/** Images of listings and prompts, stored under content-hash keys. */
export interface ObjectStorage {
  /** Stores bytes of one of the accepted image types (idempotent: same bytes, same key). */
  put(data: Buffer, contentType: string): Promise<StoredObject>;
  /** Whether an object with this key is stored. */
  exists(key: string): Promise<boolean>;
  /** The public URL of a key. */
  urlOf(key: string): string;
  /** A stored object's bytes and type, for the platform to serve itself; null when there is none. */
  read(key: string): Promise<StoredImage | null>;
}

/** An object read back: its bytes and the type its key says. */
export interface StoredImage {
  data: Buffer;
  contentType: string;
}
