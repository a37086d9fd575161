export { decodeImage, type DecodedImage } from "./decode-image";
export { ImageError } from "./image-error";
export { isObjectKey, objectKey } from "./object-key";
export { createObjectStorage, type StorageSettings } from "./create-object-storage";
export type { ObjectStorage } from "./object-storage";
export { readLocalObject } from "./local-storage";
export { S3ObjectStorage, type S3Settings } from "./s3-storage";
