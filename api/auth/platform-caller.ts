import type { DataSource } from "typeorm";
import type { KeyOwnerCache } from "./key-owner-cache";
import { ensureSessionUser } from "../../shared/db/user-store";
import type { SessionTokens } from "./session-tokens";

/** Who is calling the platform API: the user, and the key when it came with one. */
export interface PlatformCaller {
  userId: string;
  apiKeyId: string | null;
  tier: string;
  via: "api_key" | "session";
}

/** Finds the caller a bearer token names, or null. */
export type IdentifyCaller = (token: string) => Promise<PlatformCaller | null>;

/**
 * Identifies platform callers by an API key or, where `sessions` is allowed (prompt creation and editing, the pages),
 * a session token of the identity backend, whose user is created on first sight.
 */
export function callerIdentifier(
  deps: { keys: KeyOwnerCache; ds: DataSource; sessions: SessionTokens },
  options: { sessions: boolean },
): IdentifyCaller {
  return async (token) => {
    if (!token) return null;
    const owner = await deps.keys.find(token);
    if (owner) return { userId: owner.userId, apiKeyId: owner.apiKeyId, tier: owner.tier, via: "api_key" };
    if (!options.sessions) return null;
    const userId = await deps.sessions.userId(token);
    if (!userId) return null;
    await ensureSessionUser(deps.ds, userId);
    return { userId, apiKeyId: null, tier: "free", via: "session" };
  };
}
