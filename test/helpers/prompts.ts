import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import type { DataSource } from "typeorm";
import type { ApiDeps } from "../../api/deps";
import {
  createPlatformServices,
  platformSettings,
  type PlatformServices,
} from "../../api/marketplace/platform-services";
import { SessionTokens } from "../../api/auth/session-tokens";
import type { DailyLimits } from "../../api/limits/daily-limits";
import type { TrustSettings } from "../../api/marketplace/prompts/trust";
import { setUserRole } from "../../shared/db/user-store";
import { config } from "../../shared/config";
import type { TokenLauncherName } from "../../shared/chain/metadata-limits";
import { FixedPriceSource, HttpPriceSource, type PriceSource } from "../../shared/prices";
import type { Harness } from "./harness";
import { request } from "./http";
import { servePlatform } from "./platform-app";

/** The spec's Prompt record fields, exactly. */
export const PROMPT_RECORD_FIELDS = [
  "id",
  "user_id",
  "name",
  "prompt",
  "description",
  "use_cases",
  "tags",
  "is_free",
  "price_usd",
  "price",
  "category",
  "status",
  "tokenized_on",
  "image_url",
  "file_path",
  "links",
  "seller_wallet_address",
  "created_at",
  "updated_at",
].sort();

const SESSION_SECRET = "prompt-tests-session-secret-of-32-bytes-or-more";

/** A platform app for prompt tests: its own storage directory, price source, limits and scoring. */
export interface PromptsPlatform {
  url: string;
  services: PlatformServices;
  storageDir: string;
  close(): Promise<void>;
}

export interface PromptsPlatformOptions {
  dailyLimits?: Partial<DailyLimits>;
  /** `none` (the default) scores by the rules alone. */
  scoringModel?: string;
  prices?: PriceSource;
  /** The launcher whose metadata limits the token launch and prompt creation check (the worker still launches with `TOKEN_LAUNCHER`). */
  tokenLauncher?: TokenLauncherName;
  /** How long a launch request waits for the chain worker. */
  launchWaitMs?: number;
  /** `AUTO_APPROVE_MIN_SCORE` (null, the default: every prompt waits for a moderator). */
  autoApproveMinScore?: number | null;
  /** Which ratings build trust (the configuration's, unless given). */
  trust?: Partial<TrustSettings>;
  /** The public URL stored images get (`STORAGE_PUBLIC_URL`); a placeholder unless given. */
  storagePublicUrl?: string;
}

/** A price source reading the local price endpoint at `sourceUrl`, with no cache to speak of and a 1 s timeout. */
export function httpPrices(sourceUrl: string): HttpPriceSource {
  return new HttpPriceSource({ sourceUrl, currencyId: "solana", cacheMs: 1, maxAgeMs: 600_000, timeoutMs: 1_000 });
}

/** A platform app of its own for prompt tests (see `PromptsPlatformOptions`). */
export async function promptsPlatform(h: Harness, options: PromptsPlatformOptions = {}): Promise<PromptsPlatform> {
  const storageDir = await mkdtemp(join(tmpdir(), "apiary-prompt-images-"));
  const base = platformSettings();
  const services = createPlatformServices(
    platformSettings({
      storage: { dir: storageDir, publicUrl: options.storagePublicUrl ?? "http://placeholder.test/uploads", s3: null },
      dailyLimits: { ...base.dailyLimits, ...options.dailyLimits },
      contentScoring: { model: options.scoringModel ?? "none", timeoutMs: 20_000 },
      tokenLauncher: options.tokenLauncher ?? base.tokenLauncher,
      launchWaitMs: options.launchWaitMs ?? base.launchWaitMs,
      moderation: { autoApproveMinScore: options.autoApproveMinScore ?? null },
      trust: { ...base.trust, ...options.trust },
    }),
  );
  services.prices = options.prices ?? new FixedPriceSource(200);
  // Session tokens signed with a known secret, without touching the process configuration.
  const deps: ApiDeps = {
    ...h.deps,
    sessions: new SessionTokens({
      jwtSecret: SESSION_SECRET,
      jwksUrl: "",
      issuer: "",
      audience: "",
      maxAgeSeconds: 3_600,
    }),
  };
  const served = await servePlatform(h, services, deps);
  return {
    url: served.url,
    services,
    storageDir,
    async close() {
      await served.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** An HS256 session token of the identity backend for a user id. */
export async function sessionToken(userId: string, secret = SESSION_SECRET): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(secret));
}

/** A valid `POST /api/add-prompt` body for a free prompt whose text is unique. */
export function promptBody(overrides: Record<string, unknown> = {}): Record<string, any> {
  const marker = randomUUID().slice(0, 8);
  return {
    name: `Release notes writer ${marker}`,
    prompt: `You write clear, friendly release notes from a list of merged pull requests. Group the changes by theme and keep each line short. Reference ${marker}.`,
    description: "Turns a list of merged changes into release notes people enjoy reading.",
    useCases: [
      { title: "Weekly release", description: "Summarise the week's merges." },
      { title: "Changelog", description: "Draft a CHANGELOG section." },
    ],
    tags: "writing, release-notes",
    category: "content",
    ...overrides,
  };
}

/** POSTs to the platform with `Authorization: Bearer <token>` (when given). */
export function post(url: string, path: string, token: string | null, body: unknown) {
  return request(url, "POST", path, { body, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

/** A fresh user with a key whose account was made `hours` ago (ratings by new accounts build no trust). */
export async function agedKey(h: Harness, hours: number): Promise<{ key: string; userId: string }> {
  const user = await h.newKey();
  await h.deps.ds.query(
    `UPDATE users SET created_at = now() - make_interval(secs => $2::double precision * 3600) WHERE id = $1`,
    [user.userId, hours],
  );
  return user;
}

/** A fresh user made a moderator (as `npm run apikey -- role` does), with a key. */
export async function newModerator(h: Harness): Promise<{ key: string; userId: string }> {
  const user = await h.newKey();
  await setUserRole(h.deps.ds, user.userId, "moderator");
  return user;
}

const moderators = new WeakMap<Harness, Promise<{ key: string; userId: string }>>();

/** The `updated_at` a moderator reviewing the prompt now would send back (null for no such prompt). */
export async function reviewedVersion(ds: DataSource, promptId: string): Promise<string | null> {
  if (!/^[0-9a-f-]{36}$/i.test(promptId)) return null;
  const [row] = await ds.query(`SELECT updated_at FROM prompts WHERE id = $1`, [promptId]);
  return row ? new Date(row.updated_at).toISOString() : null;
}

/** Has a moderator decide on a prompt through `POST /api/moderate-prompt` (one moderator per harness). */
export async function moderate(
  h: Harness,
  platformUrl: string,
  promptId: string,
  status: "approved" | "rejected" = "approved",
): Promise<void> {
  if (!moderators.has(h)) moderators.set(h, newModerator(h));
  const { key } = await moderators.get(h)!;
  const res = await post(platformUrl, "/api/moderate-prompt", key, {
    prompt_id: promptId,
    status,
    updated_at: await reviewedVersion(h.deps.ds, promptId),
  });
  if (res.status !== 200) throw new Error(`could not moderate ${promptId}: ${JSON.stringify(res.body)}`);
}

/**
 * Makes a user a trusted seller: two free prompts, approved by a moderator, each rated 5 by as
 * many distinct accounts as trust needs, all old enough to count.
 */
export async function makeTrusted(
  h: Harness,
  platformUrl: string,
  sellerKey: string,
  trust: TrustSettings = config.platform.trust,
): Promise<void> {
  const raters = await Promise.all(
    Array.from({ length: trust.minDistinctRaters }, () => agedKey(h, trust.minRaterAgeHours + 1)),
  );
  for (let i = 0; i < 2; i++) {
    const created = await post(platformUrl, "/api/add-prompt", sellerKey, promptBody());
    if (created.status !== 200) throw new Error(`could not create a prompt: ${JSON.stringify(created.body)}`);
    await moderate(h, platformUrl, created.body.id);
    for (const rater of raters) {
      const rated = await post(platformUrl, "/api/rate-prompt", rater.key, { id: created.body.id, rating: 5 });
      if (rated.status !== 200) throw new Error(`could not rate a prompt: ${JSON.stringify(rated.body)}`);
    }
  }
}
