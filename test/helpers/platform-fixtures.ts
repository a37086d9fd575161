import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { DataSource } from "typeorm";
import { ensureUser } from "../../shared/db/user-store";
import type { AgentPageRecord } from "../../shared/db/agent-listing-store";
import { config } from "../../shared/config";

/** A session token of the identity backend for a user (HS256 with the test `SESSION_JWT_SECRET`). */
export function sessionToken(userId: string, expiresIn = "15m"): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(config.platform.session.jwtSecret));
}

/** A fresh user, and a session token for them. */
export async function sessionUser(ds: DataSource, label = "user"): Promise<{ id: string; token: string }> {
  const user = await ensureUser(ds, `${label}-${randomUUID()}`);
  return { id: user.id, token: await sessionToken(user.id) };
}

/** A rating of a prompt by a new user. */
export async function insertReview(ds: DataSource, promptId: string, rating: number): Promise<void> {
  const reviewer = await ensureUser(ds, `reviewer-${randomUUID()}`);
  await ds.query(`INSERT INTO prompt_reviews (prompt_id, user_id, rating) VALUES ($1, $2, $3)`, [
    promptId,
    reviewer.id,
    rating,
  ]);
}

/** A listing row as tests write it; unlike the page, tests also make failed launches. */
export type ListingRow = Omit<AgentPageRecord, "id" | "status" | "created_at"> & {
  status: "launching" | "launched" | "failed";
  created_at: string;
};

/** Inserts an agent listing directly (as a token launch would store it); returns its id. */
export async function insertListing(ds: DataSource, userId: string, fields: Partial<ListingRow> = {}): Promise<string> {
  const row: ListingRow = {
    name: "An agent",
    description: "Does agent things",
    ticker: "AGNT",
    image_url: null,
    status: "launched",
    token_address: null,
    pool_address: null,
    created_at: new Date().toISOString(),
    ...fields,
  };
  const [{ id }] = await ds.query(
    `INSERT INTO agent_listings (user_id, name, description, ticker, code, image_url, status, token_address, pool_address, created_at)
     VALUES ($1, $2, $3, $4, 'placeholder', $5, $6, $7, $8, $9) RETURNING id`,
    [
      userId,
      row.name,
      row.description,
      row.ticker,
      row.image_url,
      row.status,
      row.token_address,
      row.pool_address,
      row.created_at,
    ],
  );
  return id;
}
