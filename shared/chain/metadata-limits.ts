/** The token launchers `TOKEN_LAUNCHER` may name. */
export type TokenLauncherName = "token-2022" | "meteora-dbc";

/** Metaplex metadata limits, in UTF-8 bytes; a Meteora pool instruction fails on chain beyond them. */
export const METADATA_LIMITS = { name: 32, symbol: 10, uri: 200 } as const;

/** The text a launch writes into the token's metadata. */
export interface TokenMetadataText {
  name: string;
  symbol: string;
  /** The image URL, or "" for none. */
  uri: string;
}

/** A metadata field longer than its launcher allows. */
export interface MetadataOverflow {
  field: keyof TokenMetadataText;
  bytes: number;
  max: number;
}

/**
 * Fixed limits per launcher. A Token-2022 mint stores its metadata in a variable-length account,
 * so it has none of its own (one transaction must still hold it all, which the launch finds out).
 */
const LIMITS: Record<TokenLauncherName, typeof METADATA_LIMITS | null> = {
  "token-2022": null,
  "meteora-dbc": METADATA_LIMITS,
};

/**
 * The fields of a launch's metadata that the launcher would refuse, in field order; empty when it
 * fits. Shared by the API (a 400 before anything is stored or queued) and the launcher itself.
 */
export function metadataOverflows(launcher: TokenLauncherName, text: TokenMetadataText): MetadataOverflow[] {
  const limits = LIMITS[launcher];
  if (!limits) return [];
  return (Object.keys(limits) as (keyof TokenMetadataText)[]).flatMap((field) => {
    const bytes = Buffer.byteLength(text[field], "utf8");
    return bytes > limits[field] ? [{ field, bytes, max: limits[field] }] : [];
  });
}
