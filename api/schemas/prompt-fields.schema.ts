import Joi from "joi";
import { isPublicKey, parseSecretKey } from "../../shared/chain/creator-key";
import { decodeImage, ImageError, isObjectKey } from "../../shared/storage";
import { PROMPT_STATUSES } from "../../shared/db/entities/prompt.entity";

const httpUrl = () =>
  Joi.string()
    .trim()
    .uri({ scheme: ["http", "https"] })
    .max(2_000);

const useCase = Joi.object({
  title: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().allow("").max(2_000).required(),
});

const link = Joi.alternatives().conditional(Joi.string(), {
  then: httpUrl().messages({
    "string.uri": "{{#label}} must be a valid http(s) URL",
    "string.uriCustomScheme": "{{#label}} must be a valid http(s) URL",
  }),
  otherwise: Joi.object({ name: Joi.string().trim().min(1).max(200).required(), url: httpUrl().required() }).messages({
    "object.base": "{{#label}} must be a URL string or an object with a name and a url",
  }),
});

/** Decodes the image while validating, so a bad image is one more entry in the 400's `errors`. */
const imageBase64 = Joi.string()
  .max(16 * 1024 * 1024)
  .custom((value: string, helpers) => {
    try {
      return decodeImage(value);
    } catch (err) {
      if (err instanceof ImageError) return helpers.message({ custom: `{{#label}}: ${err.message}` });
      throw err;
    }
  });

/** Parsed into a CreatorKey; the messages never contain the value. */
const privateKey = Joi.alternatives()
  .try(Joi.string().max(2_000), Joi.array().max(64))
  .custom((value, helpers) => parseSecretKey(value) ?? helpers.error("any.invalid"))
  .messages({
    "any.invalid":
      "{{#label}} is not a valid Solana secret key (a JSON array of 64 integers 0-255, or base58 or base64 of 64 bytes)",
    "alternatives.types": "{{#label}} must be a string or an array",
  });

const wallet = Joi.string()
  .trim()
  .custom((value: string, helpers) => (isPublicKey(value) ? value : helpers.error("any.invalid")))
  .messages({ "any.invalid": "{{#label}} must be a Solana public key (base58 of 32 bytes)" });

/**
 * Prompt creation's fields with their own rules, without presence: creation makes some required, editing none. Rules that
 * join fields (a price when not free, the token fields when `tokenized_on`) are checked on the
 * whole record by `crossFieldProblems`.
 */
export const promptFields = {
  name: Joi.string().trim().min(2).max(200),
  prompt: Joi.string().trim().min(5).max(100_000),
  description: Joi.string().allow("", null).max(5_000),
  useCases: Joi.array().items(useCase).min(1).max(20),
  tags: Joi.string().trim().min(2).max(500),
  is_free: Joi.boolean(),
  price_usd: Joi.number()
    .min(0.01)
    .max(1_000_000)
    .allow(null)
    .messages({ "number.min": "{{#label}} must be greater than 0 (minimum 0.01)" }),
  category: Joi.string().trim().allow("", null).max(50),
  status: Joi.string()
    .valid(...PROMPT_STATUSES)
    .description(
      "The status the owner asks for: recorded as a request to the moderators, never applied by itself. A new prompt is `pending` until a moderator " +
        "(`POST /api/moderate-prompt`) approves or rejects it, or, when the operator enabled `AUTO_APPROVE_MIN_SCORE`, the scoring model's score approves it. " +
        "An edit that changes an approved listing sends it back to review; a rejected prompt stays rejected until a moderator decides otherwise.",
    ),
  tokenized_on: Joi.boolean().description(
    "Launch a token for the prompt (needs `ticker`, `creator_wallet`, `private_key`). The prompt is listed only once its token has launched; " +
      "if the launch fails it is not kept (400 `Tokenization failed`). On `POST /api/edit-prompt`, turns tokenization on for a prompt without a token; a launched token cannot be turned off.",
  ),
  ticker: Joi.string()
    .trim()
    .uppercase()
    .pattern(/^[A-Z0-9]{1,10}$/)
    .allow(null)
    .messages({ "string.pattern.base": "{{#label}} must be 1-10 letters and digits" })
    .description(
      "The token's symbol: 1-10 letters and digits, uppercased. Required with `tokenized_on`; fixed once the token has launched.",
    ),
  image_url: httpUrl()
    .allow("", null)
    .messages({
      "string.uri": "{{#label}} must be a valid http(s) URL or an empty string",
      "string.uriCustomScheme": "{{#label}} must be a valid http(s) URL or an empty string",
    })
    .description(
      "An image to fetch once, through the egress policy, and keep a copy of (PNG, JPEG, WebP or GIF); the stored copy's URL replaces it. A refused address is 400 `EGRESS_REFUSED`; any other failure leaves no image. An empty string clears the image.",
    ),
  file_path: Joi.string()
    .trim()
    .allow("", null)
    .custom((value: string, helpers) =>
      isObjectKey(value.replace(/^.*\//, "")) ? value.replace(/^.*\//, "") : helpers.error("any.invalid"),
    )
    .messages({
      "any.invalid": "{{#label}} must name an image in this service's storage (<sha-256>.<png|jpg|webp|gif>)",
    }),
  image_base64: imageBase64.allow("", null),
  links: Joi.array().items(link).max(50),
  seller_wallet_address: Joi.string().trim().allow("", null).max(100),
  creator_wallet: wallet
    .allow(null)
    .description("The wallet that pays for and owns the launch (base58 public key). Required with `tokenized_on`."),
  private_key: privateKey
    .allow(null)
    .description(
      "`creator_wallet`'s secret key: a JSON array of 64 integers (0-255), or base58 or base64 of the 64 bytes. Required with `tokenized_on`; must belong to `creator_wallet`; the wallet must hold `TOKEN_LAUNCH_MIN_SOL`. Signs the launch; never stored, logged or echoed.",
    ),
};
