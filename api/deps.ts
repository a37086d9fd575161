import type { FlowProducer } from "bullmq";
import type { DataSource } from "typeorm";
import { config } from "../shared/config";
import type { AccountSettings } from "../shared/config/accounts";
import { getDataSource } from "../shared/db/data-source";
import { KeyOwnerCache } from "./auth/key-owner-cache";
import { createPlatformServices, type PlatformServices } from "./marketplace/platform-services";
import { SessionTokens } from "./auth/session-tokens";
import { CompletionWaiter } from "../shared/queues/completion-waiter";
import { ShardedRunEvents } from "../shared/queues/sharded-run-events";
import { createFlowProducer, ShardedQueues } from "../shared/queues/queues";
import { createRedis, type RedisClient } from "../shared/queues/redis";
import { agreeOnShardLayout } from "../shared/queues/shard-layout";
import { RunProgressPoller } from "./spine/run-progress-poller";

/** Everything the API's routes need, created once per process at boot. */
export interface ApiDeps {
  ds: DataSource;
  /** Fails fast when Redis is down (health checks, rate limits). */
  redis: RedisClient;
  /** Every queue of every account shard; `queues.of(userId)` are the account's. */
  queues: ShardedQueues;
  /** Parent/child flows for batches. */
  flows: FlowProducer;
  waiter: CompletionWaiter;
  /** Every run event stream this process serves, read through one blocking Redis connection per shard. */
  runEvents: ShardedRunEvents;
  /** The steps and state of the runs not streamed that this process's event streams follow, one query a poll for all. */
  runProgress: RunProgressPoller;
  /** Valid keys seen recently (revocations are announced and drop them at once). */
  keys: KeyOwnerCache;
  /** Session tokens (JWTs) of the identity backend, accepted by parts of the platform, and the pages' own sessions. */
  sessions: SessionTokens;
  /** Who may sign up, how fast sign-in may be tried, single sign-on (tests give their own). */
  accounts: AccountSettings;
  /**
   * The marketplace's outside services and settings (prices, daily limits, content scoring, image
   * storage): the platform's token launch and prompt endpoints use them, and the execution API when an agent is published.
   */
  platform: PlatformServices;
  close(): Promise<void>;
}

/**
 * Opens Postgres, Redis, one producer per queue, one subscriber (run-done notices, key
 * revocations) and one reader of run event streams: a fixed number of Redis connections, however
 * many requests wait or stream. The platform services come from the configuration unless given (tests point them
 * at local price endpoints, tiny limits).
 */
export async function createApiDeps(platform: PlatformServices = createPlatformServices()): Promise<ApiDeps> {
  const ds = await getDataSource();
  const redis = createRedis("request");
  const producerConnection = createRedis("blocking");
  await agreeOnShardLayout(producerConnection); // before anything is queued under this process's layout
  const queues = new ShardedQueues(producerConnection);
  const flows = createFlowProducer(producerConnection);
  const waiter = new CompletionWaiter();
  const keys = new KeyOwnerCache(ds);
  const subscriber = createRedis("blocking");
  const runEvents = new ShardedRunEvents(() => createRedis("blocking"), redis);
  const runProgress = new RunProgressPoller(ds);
  await Promise.all([waiter.listenForNotices(subscriber), keys.listenForRevocations(subscriber)]);
  return {
    ds,
    redis,
    queues,
    flows,
    waiter,
    runEvents,
    runProgress,
    keys,
    sessions: new SessionTokens(config.platform.session, ds),
    accounts: config.platform.accounts,
    platform,
    async close() {
      subscriber.disconnect();
      runEvents.close();
      runProgress.close();
      await Promise.allSettled([queues.close(), flows.close()]);
      producerConnection.disconnect();
      redis.disconnect();
    },
  };
}
