import { jsonText, RawJson } from "./json-text";

/** A multipart boundary that no probe value contains. */
const BOUNDARY = "----hostile-boundary-7d3f";

function fieldText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  return typeof value === "string" ? value : jsonText(value);
}

/**
 * A body value in the operation's media type, and the content type that goes with it. Forms and
 * multipart carry the top-level fields (objects as JSON text), as a client would send them.
 */
export function encodeBody(mediaType: string, value: unknown): { body: Buffer; contentType: string } {
  const fields =
    value && typeof value === "object" && !Array.isArray(value) && !(value instanceof RawJson)
      ? Object.entries(value)
      : [["value", value] as const];
  if (mediaType === "application/x-www-form-urlencoded") {
    const form = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(fieldText(v))}`).join("&");
    return { body: Buffer.from(form), contentType: mediaType };
  }
  if (mediaType === "multipart/form-data") {
    const parts = fields.map(
      ([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${fieldText(v)}\r\n`,
    );
    return {
      body: Buffer.from(`${parts.join("")}--${BOUNDARY}--\r\n`),
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    };
  }
  return { body: Buffer.from(jsonText(value)), contentType: mediaType };
}

/** The same JSON text as a multipart form with one field, for endpoints that expect JSON. */
export function asMultipart(text: string): { body: Buffer; contentType: string } {
  return {
    body: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="json"\r\nContent-Type: application/json\r\n\r\n${text}\r\n--${BOUNDARY}--\r\n`,
    ),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}
