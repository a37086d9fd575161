import { metadataOverflows, type TokenLauncherName, type TokenMetadataText } from "../../shared/chain/metadata-limits";
import { platformValidationError } from "../platform-error";

const WHAT: Record<keyof TokenMetadataText, string> = {
  name: "the token's name",
  symbol: "the ticker",
  uri: "the image URL",
};

/**
 * Refuses, with a 400 `Validation error` naming the request's fields, metadata the configured
 * launcher would refuse when it builds the launch (a Meteora pool: name 32 bytes, ticker 10, image
 * URL 200). Checked before anything is stored or queued. `fields` maps each metadata field to the
 * request field it comes from. Messages give sizes, never the values.
 */
export function assertMetadataFits(
  launcher: TokenLauncherName,
  text: TokenMetadataText,
  fields: Record<keyof TokenMetadataText, string>,
): void {
  const problems = metadataOverflows(launcher, text).map((over) => ({
    path: fields[over.field],
    message: `${fields[over.field]}: ${WHAT[over.field]} is ${over.bytes} bytes in UTF-8; a token launched by ${launcher} allows at most ${over.max}`,
  }));
  if (problems.length) throw platformValidationError(problems);
}
