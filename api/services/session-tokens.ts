import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import { isUuid } from "./uuid";

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

/**
 * Verifies session tokens of the identity backend: JWTs signed with HS256 and
 * `SESSION_JWT_SECRET`, or with a key from `SESSION_JWKS_URL`. `sub` is the user id (a UUID). With
 * neither configured, no session token is accepted.
 */
export class SessionTokens {
  private readonly secret: Uint8Array | null;
  private readonly jwks: JWTVerifyGetKey | null;

  constructor(settings = config.platform.session) {
    this.secret = settings.jwtSecret ? new TextEncoder().encode(settings.jwtSecret) : null;
    this.jwks = settings.jwksUrl ? createRemoteJWKSet(new URL(settings.jwksUrl)) : null;
    this.options = {
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
    };
  }

  private readonly options: { issuer?: string; audience?: string };

  get enabled(): boolean {
    return Boolean(this.secret || this.jwks);
  }

  /** The user id a valid token speaks for; null for anything else (expired, forged, malformed). */
  async userId(token: string): Promise<string | null> {
    return (await this.verify(token))?.userId ?? null;
  }

  /** A valid token's user id and expiry (null when it has none); null for anything else. */
  async verify(token: string): Promise<{ userId: string; expiresAt: Date | null } | null> {
    if (!this.enabled || !looksLikeJwt(token)) return null;
    try {
      const { payload } = this.secret
        ? await jwtVerify(token, this.secret, { ...this.options, algorithms: ["HS256"] })
        : await jwtVerify(token, this.jwks!, this.options);
      if (!isUuid(payload.sub)) return null;
      return { userId: payload.sub.toLowerCase(), expiresAt: typeof payload.exp === "number" ? new Date(payload.exp * 1000) : null };
    } catch {
      return null;
    }
  }
}

/** Makes sure a user signed in through the identity backend exists here (first sight creates it). */
export async function ensureSessionUser(ds: DataSource, userId: string): Promise<void> {
  await ds.query(`INSERT INTO users (id, handle) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [userId, `session-${userId}`]);
}
