import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Accounts Apiary keeps itself, beside the identity backend's:
 * - a user may have an email (unique whatever its case) and a password hash (scrypt, its
 *   parameters inside the stored string), and the role `admin` beside `user` and `moderator`;
 * - `account_sessions`: a signed-in browser's session, kept only as the SHA-256 of its random
 *   token (the cookie holds the only copy), until it expires or is signed out;
 * - `account_invites`: one-use sign-up links, kept only as their token's hash;
 * - `account_identities`: an OpenID Connect provider's (issuer, subject) linked to a user.
 */
export class Accounts1763901000000 implements MigrationInterface {
  name = "Accounts1763901000000";

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_role_check`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('user', 'moderator', 'admin'))`);
    await q.query(`ALTER TABLE users ADD COLUMN email text NULL, ADD COLUMN password_hash text NULL`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await q.query(`CREATE TABLE account_sessions (
      token_hash char(64) PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX account_sessions_user_idx ON account_sessions (user_id)`);
    await q.query(`CREATE TABLE account_invites (
      token_hash char(64) PRIMARY KEY,
      created_by uuid NULL REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz NULL,
      used_by uuid NULL REFERENCES users(id) ON DELETE SET NULL
    )`);
    await q.query(`CREATE TABLE account_identities (
      issuer text NOT NULL,
      subject text NOT NULL,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (issuer, subject)
    )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE account_identities`);
    await q.query(`DROP TABLE account_invites`);
    await q.query(`DROP TABLE account_sessions`);
    await q.query(`DROP INDEX users_email_key`);
    await q.query(`ALTER TABLE users DROP COLUMN email, DROP COLUMN password_hash`);
    await q.query(`UPDATE users SET role = 'moderator' WHERE role = 'admin'`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_role_check`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('user', 'moderator'))`);
  }
}
