import Joi from "joi";
import { InvalidKeyError, parsePrivateKey } from "../../shared/chain/private-key";
import { CreatorKey } from "../../shared/chain/creator-key";

/** The token launch's fields after validation (same names in JSON and multipart), the key parsed. */
export interface TokenLaunchBody {
  name: string;
  description: string;
  /** Uppercased. */
  ticker: string;
  /** Checked (its public half matches its private half); prints as its public key only. */
  private_key: CreatorKey;
  /** An http(s) URL, a data URL or raw base64; absent when no image (or a file) is given. */
  image?: string;
  fee_selection: "market" | "frenzy";
  quote_mint: "SOL" | "USDC";
}

/** Parses the key into a CreatorKey; the problem's message says what is wrong, never the key. */
const privateKey = Joi.any()
  .required()
  .custom((value, helpers) => {
    try {
      return new CreatorKey(parsePrivateKey(value));
    } catch (err) {
      if (err instanceof InvalidKeyError) return helpers.message({ custom: err.message });
      throw err;
    }
  })
  .messages({ "any.required": "private_key is required" });

/**
 * The token launch's rules (docs/token-launch.md), the very schema the route validates with (JSON and multipart alike).
 * Messages are written out so that none quotes the value it refuses (joi's pattern messages
 * would, and a private key must never come back in a response).
 */
export const tokenLaunchSchema = Joi.object<TokenLaunchBody>({
  name: Joi.string()
    .trim()
    .min(2)
    .required()
    .messages({
      "any.required": "name is required",
      "string.empty": "name must be at least 2 characters",
      "string.min": "name must be at least 2 characters",
      "string.base": "name must be a string",
    })
    .description("The listing's and the token's name (at least 2 characters; `meteora-dbc`: at most 32 bytes)"),
  description: Joi.string()
    .trim()
    .min(1)
    .required()
    .messages({
      "any.required": "description is required",
      "string.empty": "description must not be empty",
      "string.base": "description must be a string",
    })
    .description("The listing's description"),
  ticker: Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9]{1,10}$/)
    .uppercase()
    .required()
    .messages({
      "any.required": "ticker is required",
      "string.empty": "ticker must be 1-10 letters or digits",
      "string.pattern.base": "ticker must be 1-10 letters or digits",
      "string.base": "ticker must be a string",
    })
    .description("The token's symbol: 1-10 letters and digits, uppercased"),
  private_key: privateKey.description(
    "The creator wallet's secret key: a JSON array of 64 integers (0-255), or base64 or base58 of the 64 bytes. Pays for and signs the launch; never stored.",
  ),
  image: Joi.string()
    .trim()
    .allow("", null)
    .messages({ "string.base": "image must be a string (a URL, a data URL or base64) or a file" })
    .description(
      "An http(s) URL, used as is (`meteora-dbc`: at most 200 bytes), or a data URL or raw base64 of a PNG, JPEG, WebP or GIF, stored first",
    ),
  fee_selection: Joi.string()
    .trim()
    .lowercase()
    .valid("market", "frenzy")
    .default("market")
    .messages({
      "any.only": "fee_selection must be 'market' or 'frenzy'",
      "string.base": "fee_selection must be 'market' or 'frenzy'",
    })
    .description("`market`: 1% trading fee; `frenzy`: 2%"),
  quote_mint: Joi.string()
    .trim()
    .uppercase()
    .valid("SOL", "USDC")
    .default("SOL")
    .messages({
      "any.only": "quote_mint must be 'SOL' or 'USDC'",
      "string.base": "quote_mint must be 'SOL' or 'USDC'",
    })
    .description("The quote token: `SOL` (market cap 18 → 400 SOL) or `USDC` (4,000 → 9,000)"),
}).options({ abortEarly: false, stripUnknown: true, convert: true });
