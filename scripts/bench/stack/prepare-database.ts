import { nodeTsx, runToCompletion } from "./managed-process";

/** Applies the migrations to the database named by `env.DATABASE_URL` (the `release` step). */
export async function migrateDatabase(env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  await runToCompletion("migrate", nodeTsx("scripts/migrate.ts"), env, logFile);
}

/** Creates an API key for `user` through the project's CLI and returns it (its last stdout line). */
export async function createApiKey(user: string, env: NodeJS.ProcessEnv, logFile: string): Promise<string> {
  const stdout = await runToCompletion("apikey", nodeTsx("scripts/apikey.ts", "create", "--user", user), env, logFile);
  const key = stdout.trim().split("\n").at(-1)?.trim();
  if (!key || /\s/.test(key)) throw new Error(`apikey printed no key on its last line:\n${stdout}`);
  return key;
}
