import { join } from "node:path";
import { runToCompletion, ROOT } from "./managed-process";

/**
 * Runs `scripts/ensure-services.sh --database <name>`: starts Postgres and Redis if needed and
 * creates the database. Idempotent and fast when everything already runs.
 */
export async function ensureServices(database: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  await runToCompletion(
    "ensure-services",
    ["bash", join(ROOT, "scripts/ensure-services.sh"), "--database", database],
    env,
    logFile,
    600_000,
  );
}
