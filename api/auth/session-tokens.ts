import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey, type JWTVerifyOptions } from "jose";
import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import type { SessionAccount } from "../../shared/db/account-session-store";
import { isUuid } from "../../shared/db/uuid";
import { accountOfSession } from "./account-sessions";

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

/** Clocks of the identity backend and ours may disagree by a few seconds; `iat` and `exp` allow for it. */
const CLOCK_TOLERANCE_S = 30;

export type SessionSettings = typeof config.platform.session;

/**
 * Verifies session tokens of the identity backend: JWTs signed with HS256 and
 * `SESSION_JWT_SECRET`, or with a key from `SESSION_JWKS_URL`. `sub` is the user id (a UUID).
 * A token must carry `exp` and `iat`, be no older than `SESSION_MAX_AGE_SECONDS` and not be made
 * to live longer than that (a stolen token stops working within that time, whatever its `exp`
 * says), and match `SESSION_JWT_ISSUER` / `SESSION_JWT_AUDIENCE` when set (the configuration
 * requires them in production). With neither key source configured, no session token is accepted.
 *
 * Given the database, it also knows Apiary's own sessions (`account`): opaque random tokens of
 * accounts kept here, looked up by their hash. The pages accept either kind.
 */
export class SessionTokens {
  private readonly secret: Uint8Array | null;
  private readonly jwks: JWTVerifyGetKey | null;
  private readonly maxAgeSeconds: number;
  private readonly options: JWTVerifyOptions;

  constructor(
    settings: SessionSettings = config.platform.session,
    /** Where Apiary's own sessions and users are; null: only the identity backend's tokens are known. */
    readonly database: DataSource | null = null,
  ) {
    this.secret = settings.jwtSecret ? new TextEncoder().encode(settings.jwtSecret) : null;
    this.jwks = settings.jwksUrl ? createRemoteJWKSet(new URL(settings.jwksUrl)) : null;
    this.maxAgeSeconds = settings.maxAgeSeconds;
    this.options = {
      requiredClaims: ["exp", "iat", "sub"],
      maxTokenAge: settings.maxAgeSeconds,
      clockTolerance: CLOCK_TOLERANCE_S,
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
    };
  }

  get enabled(): boolean {
    return Boolean(this.secret || this.jwks);
  }

  /** The account an Apiary session token speaks for, when it is live; null for anything else. */
  async account(token: string): Promise<SessionAccount | null> {
    return this.database ? accountOfSession(this.database, token) : null;
  }

  /** The user id a valid token speaks for; null for anything else (expired, forged, malformed). */
  async userId(token: string): Promise<string | null> {
    return (await this.verify(token))?.userId ?? null;
  }

  /** A valid token's user id and expiry; null for anything else. */
  async verify(token: string): Promise<{ userId: string; expiresAt: Date } | null> {
    if (!this.enabled || !looksLikeJwt(token)) return null;
    try {
      const { payload } = this.secret
        ? await jwtVerify(token, this.secret, { ...this.options, algorithms: ["HS256"] })
        : await jwtVerify(token, this.jwks!, this.options);
      if (!isUuid(payload.sub)) return null;
      // jose checks `iat` is recent enough; a fresh token may still claim to live for a year.
      if (payload.exp! - payload.iat! > this.maxAgeSeconds) return null;
      return { userId: payload.sub.toLowerCase(), expiresAt: new Date(payload.exp! * 1000) };
    } catch {
      return null;
    }
  }
}
