import { PublicKey } from "@solana/web3.js";
import { NATIVE_MINT } from "@solana/spl-token";
import {
  ActivationType,
  BaseFeeMode,
  CollectFeeMode,
  MigrationFeeOption,
  MigrationOption,
  TokenAuthorityOption,
  TokenType,
  buildCurveWithMarketCap,
  type ConfigParameters,
} from "@meteora-ag/dynamic-bonding-curve-sdk";
import type { LaunchRequest } from "./launcher";

/** The quote side of a curve: its mint, decimals and the market caps (in quote units) it spans. */
export interface QuoteSide {
  mint: PublicKey;
  decimals: number;
  initialMarketCap: number;
  migrationMarketCap: number;
}

/**
 * The default market caps of a token launch (docs/token-launch.md). Wrapped SOL has 9 decimals; USDC has 6 on every cluster,
 * so neither needs a look-up on chain.
 */
export function quoteSide(quote: LaunchRequest["quoteMint"], usdcMint: string): QuoteSide {
  if (quote === "USDC") {
    return { mint: new PublicKey(usdcMint), decimals: 6, initialMarketCap: 4_000, migrationMarketCap: 9_000 };
  }
  return { mint: NATIVE_MINT, decimals: 9, initialMarketCap: 18, migrationMarketCap: 400 };
}

/** `market` is the standard 1% trading fee; `frenzy` doubles it. */
const TRADING_FEE_BPS: Record<LaunchRequest["feeSelection"], number> = { market: 100, frenzy: 200 };

/** The graduated DAMM v2 pool keeps the same fee as the curve. */
const MIGRATED_POOL_FEE: Record<LaunchRequest["feeSelection"], MigrationFeeOption> = {
  market: MigrationFeeOption.FixedBps100,
  frenzy: MigrationFeeOption.FixedBps200,
};

export interface CurveSettings {
  quote: QuoteSide;
  feeSelection: LaunchRequest["feeSelection"];
  /** Whole tokens minted into the curve (`TOKEN_SUPPLY`). */
  supply: number;
  /** Base token decimals (`TOKEN_DECIMALS`, 6–9 for this program). */
  decimals: number;
}

/**
 * The Dynamic Bonding Curve config for one launch, computed by the SDK from the market caps.
 *
 * Choices the launch's documented fields leave open, and why:
 * - classic SPL base token with Metaplex metadata, immutable: every wallet and explorer reads it,
 *   and buyers can trust the name and image not to change;
 * - a flat fee (no fee scheduler, no dynamic fee), so a trade costs exactly 1% or 2%, paid in the
 *   quote token; the creator is also the config's fee claimer, so all trading fees reach the creator
 *   (creator share 0% = everything through the fee-claimer path) after the protocol's cut;
 * - no pool-creation fee, no migration fee, no locked vesting, no leftover;
 * - graduation to DAMM v2 (v1 is closed to new configs) with all of its liquidity permanently
 *   locked to the creator, who keeps claiming that pool's fees;
 * - activation by timestamp, so the curve does not depend on slot times.
 */
export function dbcConfigParameters(settings: CurveSettings): ConfigParameters {
  const feeBps = TRADING_FEE_BPS[settings.feeSelection];
  return buildCurveWithMarketCap({
    token: {
      tokenType: TokenType.SPLToken,
      tokenBaseDecimal: settings.decimals,
      tokenQuoteDecimal: settings.quote.decimals,
      tokenAuthorityOption: TokenAuthorityOption.Immutable,
      totalTokenSupply: settings.supply,
      leftover: 0,
    },
    fee: {
      baseFeeParams: {
        baseFeeMode: BaseFeeMode.FeeSchedulerLinear,
        feeSchedulerParam: { startingFeeBps: feeBps, endingFeeBps: feeBps, numberOfPeriod: 0, totalDuration: 0 },
      },
      dynamicFeeEnabled: false,
      collectFeeMode: CollectFeeMode.QuoteToken,
      creatorTradingFeePercentage: 0,
      poolCreationFee: 0,
      enableFirstSwapWithMinFee: false,
    },
    migration: {
      migrationOption: MigrationOption.MET_DAMM_V2,
      migrationFeeOption: MIGRATED_POOL_FEE[settings.feeSelection],
      migrationFee: { feePercentage: 0, creatorFeePercentage: 0 },
    },
    liquidityDistribution: {
      partnerLiquidityPercentage: 0,
      partnerPermanentLockedLiquidityPercentage: 0,
      creatorLiquidityPercentage: 0,
      creatorPermanentLockedLiquidityPercentage: 100,
    },
    lockedVesting: {
      totalLockedVestingAmount: 0,
      numberOfVestingPeriod: 0,
      cliffUnlockAmount: 0,
      totalVestingDuration: 0,
      cliffDurationFromMigrationTime: 0,
    },
    activationType: ActivationType.Timestamp,
    initialMarketCap: settings.quote.initialMarketCap,
    migrationMarketCap: settings.quote.migrationMarketCap,
  });
}
