import { DataSource } from "typeorm";
import { config } from "../config";
import { UserEntity } from "./entities/user.entity";
import { ApiKeyEntity } from "./entities/api-key.entity";
import { RunEntity } from "./entities/run.entity";
import { RunStepEntity } from "./entities/run-step.entity";
import { RunChargeEntity } from "./entities/run-charge.entity";
import { IdempotencyKeyEntity } from "./entities/idempotency-key.entity";
import { PromptEntity } from "./entities/prompt.entity";
import { PromptReviewEntity } from "./entities/prompt-review.entity";
import { DailyUsageEntity } from "./entities/daily-usage.entity";
import { AgentListingEntity } from "./entities/agent-listing.entity";
import { TokenLaunchEntity } from "./entities/token-launch.entity";
import { migrations } from "./migrations";
import { closeRelaxedPool } from "./sql";

const entities = [
  UserEntity,
  ApiKeyEntity,
  RunEntity,
  RunStepEntity,
  RunChargeEntity,
  IdempotencyKeyEntity,
  PromptEntity,
  PromptReviewEntity,
  DailyUsageEntity,
  AgentListingEntity,
  TokenLaunchEntity,
];

/** A data source for one database URL. The schema only ever changes through migrations. */
export function createDataSource(url = config.databaseUrl): DataSource {
  return new DataSource({
    type: "postgres",
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: config.databasePoolSize, application_name: "apiary" },
  });
}

let shared: DataSource | null = null;
let initialising: Promise<DataSource> | null = null;

/** The process-wide data source, initialised once on first use. */
export function getDataSource(): Promise<DataSource> {
  if (shared?.isInitialized) return Promise.resolve(shared);
  initialising ??= (async () => {
    const ds = createDataSource();
    await ds.initialize();
    shared = ds;
    return ds;
  })().finally(() => {
    initialising = null;
  });
  return initialising;
}

/** Closes the process-wide data source (graceful shutdown). */
export async function closeDataSource(): Promise<void> {
  const ds = shared;
  shared = null;
  if (ds) await closeRelaxedPool(ds);
  if (ds?.isInitialized) await ds.destroy();
}
