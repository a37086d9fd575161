import Joi from "joi";

/** A header name fetch can send (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A header value fetch can send: Latin-1 text without CR, LF or NUL (also a bearer token's rule). */
export const headerValueSchema = Joi.string()
  .pattern(/^[^\r\n\0\u0100-\uffff]*$/, { name: "header value" })
  .messages({
    "string.pattern.name":
      "{{#label}} cannot be sent in an HTTP header (line breaks, NUL or characters beyond Latin-1)",
  });

/**
 * Headers sent as they are (`mcp_config.headers`): one fetch cannot send would fail the run's
 * connection after the run was stored. A name that is no token is refused, not dropped in silence
 * as request validation drops unknown keys.
 */
export const headersSchema = Joi.object()
  .pattern(HEADER_NAME, headerValueSchema)
  .prefs({ stripUnknown: false })
  .messages({ "object.unknown": "{{#label}} is not a valid HTTP header name" });
