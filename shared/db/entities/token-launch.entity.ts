import { EntitySchema } from "typeorm";
import type { QuotaColumn } from "./daily-usage.entity";

/** A row of `token_launches`: one token launch, for an agent listing or a prompt. The key that signs it is never stored. */
export interface TokenLaunchRow {
  id: string;
  run_id: string | null;
  user_id: string;
  listing_id: string | null;
  /** Cleared when the prompt made for this launch is deleted after the launch failed. */
  prompt_id: string | null;
  network: string;
  launcher: string;
  creator_wallet: string;
  name: string;
  ticker: string;
  image_url: string | null;
  quote_mint: "SOL" | "USDC";
  fee_selection: "market" | "frenzy";
  mint_address: string | null;
  pool_address: string | null;
  /** The first transaction's signature (the launch's public identifier). */
  signature: string | null;
  /** Every transaction's signature, stored before the first is sent. */
  signatures: string[];
  blockhashes: string[];
  status: "pending" | "sent" | "confirmed" | "failed";
  error: string | null;
  /** The daily count the prompt took when it was made for this launch, given back if it fails. */
  quota_counter: QuotaColumn | null;
  quota_day: string | null;
  sent_at: Date | null;
  confirmed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const TokenLaunchEntity = new EntitySchema<TokenLaunchRow>({
  name: "TokenLaunch",
  tableName: "token_launches",
  columns: {
    id: { type: "uuid", primary: true, generated: "uuid" },
    run_id: { type: "uuid", nullable: true },
    user_id: { type: "uuid" },
    listing_id: { type: "uuid", nullable: true },
    prompt_id: { type: "uuid", nullable: true },
    network: { type: "text" },
    launcher: { type: "text" },
    creator_wallet: { type: "text" },
    name: { type: "text" },
    ticker: { type: "text" },
    image_url: { type: "text", nullable: true },
    quote_mint: { type: "text" },
    fee_selection: { type: "text" },
    mint_address: { type: "text", nullable: true },
    pool_address: { type: "text", nullable: true },
    signature: { type: "text", nullable: true },
    signatures: { type: "text", array: true, default: () => "'{}'" },
    blockhashes: { type: "text", array: true, default: () => "'{}'" },
    status: { type: "text", default: "pending" },
    error: { type: "text", nullable: true },
    quota_counter: { type: "text", nullable: true },
    quota_day: { type: "date", nullable: true },
    sent_at: { type: "timestamptz", nullable: true },
    confirmed_at: { type: "timestamptz", nullable: true },
    created_at: { type: "timestamptz", createDate: true },
    updated_at: { type: "timestamptz", updateDate: true },
  },
});
