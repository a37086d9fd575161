import Joi from "joi";

/**
 * What the worker takes as an image: an http(s) URL (it fetches it), a data URL, or raw base64 it
 * wraps in one. No flags: the pattern is documented as it is, and OpenAPI patterns have none.
 */
const IMAGE_REFERENCE = /^(?:https?:\/\/\S+|data:[^,\s]*,\S+|[A-Za-z0-9+/]+={0,2})$/;

/**
 * An http(s) URL whose spelling parsers read differently is refused: a backslash, a control
 * character, a user name or password (Python's urlsplit reads `http://a.test\@127.0.0.2/` as
 * 127.0.0.2, WHATWG URL as a.test). The service checks and fetches an image with WHATWG URL alone,
 * so any other spelling (no trailing slash, an upper-case host) means the same URL to both.
 */
function unambiguousUrl(value: string, helpers: Joi.CustomHelpers): string | Joi.ErrorReport {
  if (!/^https?:/i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return helpers.error("image.ambiguous", { href: "(none: not a valid URL)" });
  }
  if (url.username || url.password) return helpers.error("image.ambiguous", { href: "(none: without user info)" });
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  return /[\\\u0000-\u001f\u007f]/.test(value) ? helpers.error("image.ambiguous", { href: url.href }) : value;
}

/**
 * `img`, `imgs` items: an image in one of the forms the service takes (README "What an agent
 * does"). Anything else, blank text included, would only fail the run after it was stored and billed.
 */
export const imageSchema = Joi.string()
  .max(20_000_000)
  .pattern(IMAGE_REFERENCE, { name: "image" })
  .custom(unambiguousUrl)
  .messages({
    "string.pattern.name": "{{#label}} must be an http(s) URL, a data URL or base64 image data",
    "image.ambiguous":
      "{{#label}} must be a URL every parser reads alike: no backslash, control character, user name or password (written so: {{#href}})",
  });
