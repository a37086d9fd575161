import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "../../shared/config";
import { BadRequestError } from "../../shared/errors";

/**
 * Opaque page cursors: the position of the next page, signed with a key derived from
 * `SECRETS_KEY` and bound to the account and the query it pages (its scope and filters). A cursor
 * that was altered, made up, or sent with another account's key or other filters is refused with
 * 400 `INVALID_CURSOR`; none can reach rows its query would not list.
 */

const key = () => createHmac("sha256", config.secretsKey).update("page-cursor").digest();

const mac = (body: string, binding: string) =>
  createHmac("sha256", key()).update(`${binding}\n${body}`).digest().subarray(0, 16);

const invalid = () => new BadRequestError("The cursor is malformed, or belongs to another query", {}, "INVALID_CURSOR");

/** A cursor for `position`, valid only with the same `binding` (the account and query it pages). */
export function encodeCursor(position: unknown, binding: string): string {
  const body = Buffer.from(JSON.stringify(position)).toString("base64url");
  return `${body}.${mac(body, binding).toString("base64url")}`;
}

/** The position a cursor holds, checked with `isPosition`; 400 `INVALID_CURSOR` for anything else. */
export function decodeCursor<T>(cursor: string, binding: string, isPosition: (value: unknown) => value is T): T {
  const [body, signature, extra] = cursor.split(".");
  if (!body || !signature || extra !== undefined || body.length > 512) throw invalid();
  const given = Buffer.from(signature, "base64url");
  const expected = mac(body, binding);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!isPosition(position)) throw invalid();
  return position;
}
