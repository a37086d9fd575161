export { decodeImage, type DecodedImage } from "./decode-image";
export { ImageError, type ImageProblem } from "./image-error";
export { IMAGE_TYPES, sniffImageType, type ImageContentType } from "./image-types";
export { isObjectKey, objectKey } from "./object-key";
export { createObjectStorage, type StorageSettings } from "./create-object-storage";
export type { ObjectStorage, StoredObject } from "./object-storage";
export { LocalObjectStorage, readLocalObject } from "./local-storage";
export { S3ObjectStorage, type S3Settings } from "./s3-storage";
