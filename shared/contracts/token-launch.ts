/** What a `token_launch` run (`POST /api/token/launch`) stores as its request (no secrets: the creator's key waits sealed in Redis). */
export interface TokenLaunchRunRequest {
  name: string;
  ticker: string;
  image_url: string | null;
  fee_selection: string;
  quote_mint: string;
  creator_wallet: string;
  listing_id: string;
}

/** What a `prompt_tokenize` run (a prompt's token) stores as its request. */
export interface PromptTokenizeRunRequest {
  name: string;
  ticker: string;
  image_url: string | null;
  creator_wallet: string;
  prompt_id: string;
}

/** A launch run's stored output: where the token is (a pointer for the API, no secrets). */
export interface TokenLaunchOutput {
  listing_id: string | null;
  prompt_id: string | null;
  token_address: string;
  pool_address: string | null;
  signature: string;
}
