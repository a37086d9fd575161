import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * A secret `npm start` makes for this checkout when the operator set none: made once (random,
 * `bytes` long, base64url), kept in a git-ignored file readable by its owner only, so it survives
 * restarts and is never a value the repository holds.
 */
export async function localSecret(file: string, bytes: number): Promise<string> {
  const existing = await readFile(file, "utf8").then(
    (s) => s.trim(),
    () => "",
  );
  if (existing) return existing;
  const secret = randomBytes(bytes).toString("base64url");
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
