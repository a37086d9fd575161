/** The image formats the service stores, with the extension their object keys get. */
export const IMAGE_TYPES = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
} as const;

export type ImageContentType = keyof typeof IMAGE_TYPES;
export type ImageExtension = (typeof IMAGE_TYPES)[ImageContentType];

const SIGNATURES: { type: ImageContentType; matches: (b: Buffer) => boolean }[] = [
  {
    type: "image/png",
    matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: "image/jpeg", matches: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", matches: (b) => ["GIF87a", "GIF89a"].includes(b.toString("latin1", 0, 6)) },
  {
    type: "image/webp",
    matches: (b) => b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP",
  },
];

/**
 * The real type of an image, read from its first bytes (names and declared types are never
 * trusted). Only the four accepted formats are recognised, which is why this is a short table
 * rather than a general file-type detector.
 */
export function sniffImageType(data: Buffer): ImageContentType | null {
  return SIGNATURES.find((s) => s.matches(data))?.type ?? null;
}

export function extensionOf(type: ImageContentType): ImageExtension {
  return IMAGE_TYPES[type];
}

/** The content type an extension stands for, for the four stored formats only. */
export function contentTypeOfExtension(extension: string): ImageContentType | null {
  const found = (Object.entries(IMAGE_TYPES) as [ImageContentType, string][]).find(([, ext]) => ext === extension);
  return found ? found[0] : null;
}
