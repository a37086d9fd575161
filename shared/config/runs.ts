import { count, defineDomain, money, num } from "./setting";

/** A limit per key tier; tiers other than these fall back to `free`. */
const perTier = (free: number, premium: number): Record<string, number> => ({ free, premium });

/** How long, how costly and how wide one run may be. */
export const runs = defineDomain(
  "Run budgets and fan-out",
  {
    RUN_MAX_SECONDS: num(count.default(900), "longest a run may take (its deadline)"),
    RUN_MAX_TOKENS_FREE: num(count.default(2_000_000), "most tokens one run of a `free` key may use"),
    RUN_MAX_TOKENS_PREMIUM: num(count.default(20_000_000), "most tokens one run of a `premium` key may use"),
    RUN_MAX_COST_FREE: num(money.default(25), "most dollars one run of a `free` key may cost"),
    RUN_MAX_COST_PREMIUM: num(money.default(250), "most dollars one run of a `premium` key may cost"),
    MAX_BATCH_SIZE: num(count.max(10_000).default(100), "most items in one batch request (more is 400)"),
    SWARM_MAX_PARALLEL: num(count.max(1_000).default(32), "most agent turns of one swarm run at once"),
  },
  (env) => ({
    runLimits: {
      maxSeconds: env("RUN_MAX_SECONDS"),
      maxTokens: perTier(env("RUN_MAX_TOKENS_FREE"), env("RUN_MAX_TOKENS_PREMIUM")),
      maxCost: perTier(env("RUN_MAX_COST_FREE"), env("RUN_MAX_COST_PREMIUM")),
    },
    maxBatchSize: env("MAX_BATCH_SIZE"),
    swarmMaxParallel: env("SWARM_MAX_PARALLEL"),
  }),
);
