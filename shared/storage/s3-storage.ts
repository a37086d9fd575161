import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { contentTypeOfKey, isObjectKey, objectKey } from "./object-key";
import type { ObjectStorage, StoredImage, StoredObject } from "./object-storage";

function isNotFound(err: unknown): boolean {
  const { name, $metadata } = (err ?? {}) as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  return $metadata?.httpStatusCode === 404 || name === "NotFound" || name === "NoSuchKey";
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  publicUrl: string;
}

/** Objects in an S3-compatible bucket (AWS S3, MinIO, R2, …), public through `publicUrl`. */
export class S3ObjectStorage implements ObjectStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      // Path-style addressing works on every S3-compatible server; virtual hosts need DNS set-up.
      forcePathStyle: true,
      credentials: settings.accessKeyId
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
      // Newer SDKs add flexible checksums by default, which several S3-compatible servers refuse.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(data: Buffer, contentType: string): Promise<StoredObject> {
    const key = objectKey(data, contentType);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: data,
        ContentType: contentType,
        // Content-addressed: an object under a key never changes.
        CacheControl: "public, max-age=31536000, immutable",
      }),
    );
    return { key, url: this.urlOf(key) };
  }

  async exists(key: string): Promise<boolean> {
    if (!isObjectKey(key)) return false;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async read(key: string): Promise<StoredImage | null> {
    // The type comes from the key the storage gave the object, never from what the bucket says.
    const contentType = contentTypeOfKey(key);
    if (!contentType) return null;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      if (!object.Body) return null;
      return { data: Buffer.from(await object.Body.transformToByteArray()), contentType };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  urlOf(key: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, "")}/${key}`;
  }
}
