import Joi from "joi";
import { count, defineDomain, ms, num, str } from "./setting";

/**
 * Redis Cluster keeps a key in the slot its hash tag (the text inside the first `{…}`) picks;
 * BullMQ's scripts touch several keys of a queue at once, and those must share one slot. Every key
 * the service writes starts with the prefix, so a prefix that opens with a non-empty tag is enough.
 */
const HASH_TAGGED = /^[^{]*\{[^}]+\}/;

/** BullMQ: key prefix, retries, retention, locks and how many jobs each worker process runs. */
export const queues = defineDomain(
  "Queues and workers",
  {
    QUEUE_PREFIX: str(
      Joi.string()
        .pattern(/^[A-Za-z0-9_{}:-]+$/)
        .pattern(HASH_TAGGED, "Redis Cluster hash tag")
        .messages({
          "string.pattern.name":
            "{{#label}} must start with a Redis Cluster hash tag such as {apiary}, so that all keys of a queue share one slot",
        })
        .default("{apiary}"),
      "prefix of every Redis key; must start with a Redis Cluster hash tag (`{…}`), which keeps each account shard's keys in one slot (shard 0 uses it as it is)",
    ),
    // Each shard is a hash tag of its own, so a Redis Cluster spreads the accounts' work over its masters
    // (docs/scaling.md, "Queue shards"); changing it moves keys, so the queues must be drained first
    // and the layout every process checks at start re-recorded (`shard-layout.ts`, `scripts/reshard.ts`).
    QUEUE_SHARDS: num(
      count.max(256).default(1),
      "account shards of the Redis keyspace, each its own hash tag (queues, limits, run streams); 1 keeps every key under QUEUE_PREFIX. Every process must agree (a process with another value refuses to start); change it with `scripts/reshard.ts` once the queues are drained",
    ),
    JOB_ATTEMPTS: num(count.max(20).default(3), "job attempts (they cover crashed workers, not LLM errors)"),
    JOB_KEEP_COMPLETED_S: num(
      Joi.number().integer().min(60).default(3_600),
      "how long finished jobs stay in Redis, in seconds (runs themselves live in Postgres)",
    ),
    JOB_KEEP_COMPLETED_COUNT: num(
      Joi.number().integer().min(100).default(20_000),
      "how many finished jobs stay in Redis",
    ),
    // Runs mostly wait on the LLM, so a process holds hundreds; LLM_MAX_IN_FLIGHT bounds the outbound
    // calls and WORKER_MAX_RSS_MB the memory (docs/scaling.md, "Scaling a worker"). The swarm worker
    // holds 2,000: the Procfile runs one, and a burst of 2,000 swarms waited in two waves at 1,000.
    WORKER_CONCURRENCY_AGENT: num(count.default(1_000), "agent jobs one worker process holds at once"),
    WORKER_CONCURRENCY_SWARM: num(count.default(2_000), "swarm jobs one worker process holds at once"),
    WORKER_CONCURRENCY_CHAIN: num(count.default(4), "chain jobs (token launches) one worker process runs at once"),
    // Fair dispatch (docs/fair-dispatch.md): an account's waiting runs are interleaved with every
    // other account's, this many of its runs per round for each of its keys' tiers.
    FAIR_WEIGHT_FREE: num(
      count.max(64).default(1),
      "runs a `free` account (and any tier not listed) starts per round of fair dispatch while other accounts wait",
    ),
    FAIR_WEIGHT_PREMIUM: num(
      count.max(64).default(4),
      "runs a `premium` account starts per round of fair dispatch while other accounts wait",
    ),
    WORKER_MAX_RSS_MB: num(
      Joi.number().integer().min(0).default(768),
      "a worker takes no new jobs while its resident memory is above this many MiB, and takes them again below 90% of it (0: no ceiling)",
    ),
    WORKER_LOCK_MS: num(
      ms.min(1_000).default(30_000),
      "job lock; a dead worker's job is retried after about this long",
    ),
    WORKER_STALLED_INTERVAL_MS: num(ms.min(500).default(30_000), "how often workers look for stalled jobs"),
    // Below the 10 s that `docker stop` and `npm start` give a process before SIGKILL, leaving time to hand jobs back.
    WORKER_DRAIN_MS: num(
      Joi.number().integer().min(0).default(8_000),
      "on SIGTERM, how long a worker lets its active runs finish before handing them back to their queue",
    ),
  },
  (env) => ({
    queue: {
      prefix: env("QUEUE_PREFIX"),
      /** Account shards of the keyspace (`shared/queues/shards.ts`). */
      shards: env("QUEUE_SHARDS"),
      attempts: env("JOB_ATTEMPTS"),
      keepCompletedSeconds: env("JOB_KEEP_COMPLETED_S"),
      keepCompletedCount: env("JOB_KEEP_COMPLETED_COUNT"),
      lockMs: env("WORKER_LOCK_MS"),
      stalledIntervalMs: env("WORKER_STALLED_INTERVAL_MS"),
      /** How long a stopping worker lets its active jobs run before handing them back to the queue. */
      drainMs: env("WORKER_DRAIN_MS"),
      /** Resident memory above which a worker stops taking jobs (0: never). */
      maxRssMb: env("WORKER_MAX_RSS_MB"),
      /** Runs per round of fair dispatch, by the key's tier (unknown tiers get `free`'s). */
      fairWeights: { free: env("FAIR_WEIGHT_FREE"), premium: env("FAIR_WEIGHT_PREMIUM") } as Record<string, number>,
      concurrency: {
        agent: env("WORKER_CONCURRENCY_AGENT"),
        swarm: env("WORKER_CONCURRENCY_SWARM"),
        chain: env("WORKER_CONCURRENCY_CHAIN"),
      },
    },
  }),
);
