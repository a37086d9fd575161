import type { Connection } from "@solana/web3.js";
import { createChainConnection } from "../../shared/chain/connection";
import type { TokenLauncherName } from "../../shared/chain/metadata-limits";
import { config } from "../../shared/config";
import { createPriceSource, type PriceSettings, type PriceSource } from "../../shared/prices";
import { createObjectStorage, type ObjectStorage, type StorageSettings } from "../../shared/storage";
import type { DailyLimits } from "../limits/daily-limits";
import type { ScoringSettings } from "./prompts/content-rules";
import type { ModerationSettings } from "./prompts/review";
import type { TrustSettings } from "./prompts/trust";

/**
 * The outside services and settings the prompt marketplace uses (the platform's routes, and the
 * execution API publishing agents), built once from the configuration and kept in `ApiDeps`.
 * Tests build their own (a temporary storage directory, a local price endpoint, tiny daily
 * limits, another scoring model) and serve apps on deps holding them, so nothing global is edited.
 */
export interface PlatformServices {
  storage: ObjectStorage;
  /** The local directory served at `/uploads`, or null when images live in a bucket. */
  uploadsDir: string | null;
  prices: PriceSource;
  dailyLimits: DailyLimits;
  contentScoring: ScoringSettings;
  /** Whether a high model score approves a prompt without a moderator (off by default). */
  moderation: ModerationSettings;
  /** Which ratings make a seller trusted for paid content. */
  trust: TrustSettings;
  /** The Solana cluster (`SOLANA_RPC_URL`), for wallet balances before a launch. */
  chain: Connection;
  /** `TOKEN_LAUNCHER`: its metadata limits are checked before a launch is queued. */
  tokenLauncher: TokenLauncherName;
  /** `LAUNCH_WAIT_MS`: how long a launch request waits for the chain worker. */
  launchWaitMs: number;
}

export interface PlatformSettings {
  storage: StorageSettings;
  prices: PriceSettings;
  dailyLimits: DailyLimits;
  contentScoring: ScoringSettings;
  moderation: ModerationSettings;
  trust: TrustSettings;
  tokenLauncher: TokenLauncherName;
  launchWaitMs: number;
}

/** The configuration's platform settings, with any of them replaced. */
export function platformSettings(overrides: Partial<PlatformSettings> = {}): PlatformSettings {
  return {
    storage: config.storage,
    prices: config.prices,
    dailyLimits: config.platform.dailyLimits,
    contentScoring: config.platform.contentScoring,
    moderation: config.platform.moderation,
    trust: config.platform.trust,
    tokenLauncher: config.solana.launcher,
    launchWaitMs: config.solana.launchWaitMs,
    ...overrides,
  };
}

/** Builds the marketplace's outside services (storage, prices, the chain) from the settings, once per process. */
export function createPlatformServices(settings: PlatformSettings = platformSettings()): PlatformServices {
  return {
    storage: createObjectStorage(settings.storage),
    uploadsDir: settings.storage.s3 ? null : settings.storage.dir,
    prices: createPriceSource(settings.prices),
    dailyLimits: { ...settings.dailyLimits },
    contentScoring: { ...settings.contentScoring },
    moderation: { ...settings.moderation },
    trust: { ...settings.trust },
    chain: createChainConnection(),
    tokenLauncher: settings.tokenLauncher,
    launchWaitMs: settings.launchWaitMs,
  };
}
