import { getDataSource, closeDataSource } from "../shared/db/data-source";
import { logger } from "../shared/logger";

/** Runs pending migrations (the `release` process type). Returns the names it applied. */
export async function migrate(): Promise<string[]> {
  const ds = await getDataSource();
  const applied = await ds.runMigrations({ transaction: "each" });
  return applied.map((m) => m.name);
}

if (require.main === module) {
  migrate()
    .then(async (names) => {
      logger.info({ applied: names }, names.length ? "migrations applied" : "database schema up to date");
      await closeDataSource();
    })
    .catch(async (err) => {
      logger.error({ err }, "migration failed");
      await closeDataSource().catch(() => undefined);
      process.exit(1);
    });
}
