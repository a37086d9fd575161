import Joi from "joi";
import type { FieldProblem } from "../../../platform/platform-error";

/** E6's fields after validation (same names in JSON and multipart). `private_key` is parsed apart. */
export interface TokenLaunchBody {
  name: string;
  description: string;
  /** Uppercased. */
  ticker: string;
  private_key: unknown;
  /** An http(s) URL, a data URL or raw base64; absent when no image (or a file) is given. */
  image?: string;
  fee_selection: "market" | "frenzy";
  quote_mint: "SOL" | "USDC";
}

/**
 * The spec's E6 rules. Messages are written out so that none quotes the value it refuses (joi's
 * pattern messages would, and a private key must never come back in a response).
 */
export const tokenLaunchSchema = Joi.object<TokenLaunchBody>({
  name: Joi.string().trim().min(2).required().messages({
    "any.required": "name is required",
    "string.empty": "name must be at least 2 characters",
    "string.min": "name must be at least 2 characters",
    "string.base": "name must be a string",
  }),
  description: Joi.string().trim().min(1).required().messages({
    "any.required": "description is required",
    "string.empty": "description must not be empty",
    "string.base": "description must be a string",
  }),
  ticker: Joi.string().trim().pattern(/^[A-Za-z0-9]{1,10}$/).uppercase().required().messages({
    "any.required": "ticker is required",
    "string.empty": "ticker must be 1-10 letters or digits",
    "string.pattern.base": "ticker must be 1-10 letters or digits",
    "string.base": "ticker must be a string",
  }),
  private_key: Joi.any().required().messages({ "any.required": "private_key is required" }),
  image: Joi.string().trim().allow("", null).messages({ "string.base": "image must be a string (a URL, a data URL or base64) or a file" }),
  fee_selection: Joi.string().trim().lowercase().valid("market", "frenzy").default("market").messages({
    "any.only": "fee_selection must be 'market' or 'frenzy'",
    "string.base": "fee_selection must be 'market' or 'frenzy'",
  }),
  quote_mint: Joi.string().trim().uppercase().valid("SOL", "USDC").default("SOL").messages({
    "any.only": "quote_mint must be 'SOL' or 'USDC'",
    "string.base": "quote_mint must be 'SOL' or 'USDC'",
  }),
}).options({ abortEarly: false, stripUnknown: true, convert: true });

/** Validates an E6 body: its value, or every field problem at once. */
export function validateTokenLaunch(body: unknown): { value: TokenLaunchBody; problems: FieldProblem[] } {
  const { value, error } = tokenLaunchSchema.validate(body ?? {});
  const problems = (error?.details ?? []).map((d) => ({ path: d.path.join("."), message: d.message }));
  return { value: value as TokenLaunchBody, problems };
}
