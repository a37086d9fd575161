import Joi from "joi";

/**
 * What the worker takes as an image: an http(s) URL (it fetches it), a data URL, or raw base64 it
 * wraps in one. No flags: the pattern is documented as it is, and OpenAPI patterns have none.
 */
const IMAGE_REFERENCE = /^(?:https?:\/\/\S+|data:[^,\s]*,\S+|[A-Za-z0-9+/]+={0,2})$/;

/**
 * An http(s) URL is taken only as WHATWG URL writes it back: a backslash, a user name or password,
 * control characters or anything else another parser could read as a different host (Python's
 * urlsplit reads `http://a.test\@127.0.0.2/` as 127.0.0.2) is refused, so what is checked is what
 * is stored and fetched.
 */
function canonicalUrl(value: string, helpers: Joi.CustomHelpers): string | Joi.ErrorReport {
  if (!/^https?:/i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return helpers.error("image.canonical", { href: "(none: not a valid URL)" });
  }
  // User info is kept by WHATWG URL's href, but parsers disagree on where it ends: never taken.
  if (url.username || url.password) return helpers.error("image.canonical", { href: "(none: without user info)" });
  return url.href === value ? value : helpers.error("image.canonical", { href: url.href });
}

/**
 * `img`, `imgs` items: an image in one of the forms the service takes (README "What an agent
 * does"). Anything else, blank text included, would only fail the run after it was stored and billed.
 */
export const imageSchema = Joi.string()
  .max(20_000_000)
  .pattern(IMAGE_REFERENCE, { name: "image" })
  .custom(canonicalUrl)
  .messages({
    "string.pattern.name": "{{#label}} must be an http(s) URL, a data URL or base64 image data",
    "image.canonical":
      "{{#label}} must be a URL written as it is read, with no backslash, user name or password (written so: {{#href}})",
  });
