import Joi from "joi";
import { defineDomain, ms, num, oneOf, optionalStr, str } from "./setting";

/** The Solana cluster and how tokens are launched on it. */
export const solana = defineDomain(
  "Solana and token launches",
  {
    SOLANA_RPC_URL: str(
      Joi.string()
        .uri({ scheme: ["http", "https"] })
        .default("http://127.0.0.1:8899"),
      "Solana JSON-RPC; at this default `npm start` runs the local network there",
    ),
    SOLANA_WS_URL: optionalStr(
      Joi.string().uri({ scheme: ["ws", "wss"] }),
      "Solana websocket (signature subscriptions)",
    ),
    SOLANA_NETWORK: str(Joi.string().default("localnet"), "network name stored with each launch"),
    TOKEN_LAUNCHER: oneOf(
      ["token-2022", "meteora-dbc"] as const,
      "token-2022",
      "how tokens are launched: `token-2022` (a mint with metadata) or `meteora-dbc` (a bonding-curve pool)",
    ),
    // Base58 public key (32–44 characters of the Bitcoin alphabet); the default is mainnet USDC.
    SOLANA_USDC_MINT: str(
      Joi.string()
        .pattern(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
        .default("EPjFWdd5AufqSSqeM2qTVu3mTJp8ixD2Cd4BBcUoTdDp"),
      'the mint a `quote_mint: "USDC"` bonding curve trades against (devnet: `4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU`)',
    ),
    TOKEN_LAUNCH_MIN_SOL: num(
      Joi.number().min(0).default(0.04),
      "least balance a creator wallet needs for a token launch",
    ),
    TOKEN_SUPPLY: num(Joi.number().integer().min(1).default(1_000_000_000), "whole tokens minted to the creator"),
    // A Meteora bonding curve accepts base tokens of 6 to 9 decimals only.
    TOKEN_DECIMALS: num(
      Joi.number()
        .integer()
        .min(0)
        .max(9)
        .default(6)
        .when("TOKEN_LAUNCHER", { is: "meteora-dbc", then: Joi.number().min(6) }),
      "decimals of a launched token (6 to 9 with `meteora-dbc`)",
    ),
    LAUNCH_WAIT_MS: num(
      ms.default(120_000),
      "longest a token launch (`POST /api/token/launch`, or a tokenized prompt) waits to land (then 500 `LAUNCH_PENDING` with the listing or prompt id)",
    ),
  },
  (env) => ({
    solana: {
      rpcUrl: env("SOLANA_RPC_URL"),
      wsUrl: env("SOLANA_WS_URL") ?? null,
      network: env("SOLANA_NETWORK"),
      launcher: env("TOKEN_LAUNCHER"),
      /** The USDC mint a `quote_mint: "USDC"` bonding curve trades against (differs per cluster). */
      usdcMint: env("SOLANA_USDC_MINT"),
      minBalanceSol: env("TOKEN_LAUNCH_MIN_SOL"),
      supply: env("TOKEN_SUPPLY"),
      decimals: env("TOKEN_DECIMALS"),
      launchWaitMs: env("LAUNCH_WAIT_MS"),
    },
  }),
);
