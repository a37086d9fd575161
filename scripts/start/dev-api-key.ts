import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { DataSource } from "typeorm";
import { createApiKey, findKeyOwner } from "../../shared/auth/api-keys";
import { ensureUser } from "../../shared/db/user-store";

/**
 * The development API key, created once and kept in a git-ignored file so `npm start` can print
 * it every time (the database only ever holds its hash). A revoked or unknown key is replaced.
 */
export async function ensureDevApiKey(ds: DataSource, file: string): Promise<string> {
  const existing = await readFile(file, "utf8").then(
    (s) => s.trim(),
    () => "",
  );
  if (existing && (await findKeyOwner(ds, existing))) return existing;
  const user = await ensureUser(ds, "dev");
  const { key } = await createApiKey(ds, user.id, "development", "premium");
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
