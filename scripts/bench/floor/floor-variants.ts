/** How a floor variant hands a run to its worker. */
export type FloorQueue = "bullmq" | "list";
/** How a floor worker calls the LLM: the `openai` SDK, or one plain `fetch`. */
export type FloorLlm = "sdk" | "fetch";

/** One variant of the design's minimal implementation. */
export interface FloorVariant {
  /** Short name in the tables: `floor-A`, `floor-B`, `floor-C`. */
  label: string;
  queue: FloorQueue;
  llm: FloorLlm;
  /** One line saying what it is, for the output. */
  describe: string;
}

/**
 * The variants, each differing from the previous one in one part, so the difference of two
 * neighbours is that part's share: A is the design with the real worker's LLM client, B swaps the
 * SDK for `fetch`, C swaps BullMQ for a plain Redis list.
 */
export const FLOOR_VARIANTS: readonly FloorVariant[] = [
  { label: "floor-A", queue: "bullmq", llm: "sdk", describe: "Koa + pg + BullMQ + openai SDK" },
  { label: "floor-B", queue: "bullmq", llm: "fetch", describe: "Koa + pg + BullMQ + fetch" },
  { label: "floor-C", queue: "list", llm: "fetch", describe: "Koa + pg + Redis list (BLMOVE) + fetch" },
];

/** Redis names the floor's web and worker agree on. */
export const FLOOR_KEYS = {
  /** BullMQ queue name (under the variant's own Redis server, default prefix). */
  queue: "agent",
  /** The channel the worker announces finished runs on. */
  doneChannel: "floor:run-done",
  /** Variant C: the list the web pushes run ids onto, and the list a claimed id waits in until done. */
  pending: "floor:pending",
  claimed: "floor:claimed",
} as const;

/**
 * What every floor connection pool shares: the database from the environment, and idle
 * connections closed after a second, so a stack that is not measured holds few of the shared
 * Postgres server's connections.
 */
export const FLOOR_POOL = { connectionString: process.env.DATABASE_URL, idleTimeoutMillis: 1_000 } as const;
