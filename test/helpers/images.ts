/** Small images of each accepted type (and a few things that are not images) for storage tests. */
export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
export const GIF_1PX = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
/** A 1×1 lossless WebP. */
export const WEBP_1PX = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
/** A JPEG's SOI and JFIF APP0 marker: enough for the type to be recognised. */
export const JPEG_HEAD = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from("JFIF\0", "latin1"),
  Buffer.alloc(32),
]);
export const PDF_BYTES = Buffer.from("%PDF-1.7\n1 0 obj <<>> endobj\n", "latin1");

export function dataUrl(data: Buffer, declaredType = "image/png"): string {
  return `data:${declaredType};base64,${data.toString("base64")}`;
}
