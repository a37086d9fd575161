import { Worker } from "bullmq";
import Redis from "ioredis";
import { Pool } from "pg";
import { llmCaller } from "./floor-llm";
import { FLOOR_KEYS, FLOOR_POOL, type FloorLlm, type FloorQueue } from "./floor-variants";

// The floor's worker process: claim the row, call the LLM, complete the row durably, announce it.
// Started by the `floor` bench scenario as `node --import tsx scripts/bench/floor/floor-worker.ts`
// with DATABASE_URL, REDIS_URL, LLM_BASE_URL, FLOOR_QUEUE (bullmq | list) and FLOOR_LLM (sdk | fetch).

// The real agent worker's job concurrency and lock settings (their defaults).
const CONCURRENCY = 1_000;
const LOCK_MS = 30_000;
const env = (name: string) => process.env[name] ?? "";

// The claim may be lost in a crash (the job runs again and claims again); the completion may not.
// Pools smaller than the product's 20 and quick to let go: four stacks share one Postgres's
// 100 connections with the other work on the machine, and commits group anyway.
const relaxed = new Pool({ ...FLOOR_POOL, max: 5, options: "-c synchronous_commit=off" });
const durable = new Pool({ ...FLOOR_POOL, max: 10 });
const redis = new Redis(env("REDIS_URL"), { maxRetriesPerRequest: null });
const callLlm = llmCaller(env("FLOOR_LLM") as FloorLlm, env("LLM_BASE_URL"), "sim");

/** One run, start to finish; a run already finished (a repeated delivery) makes no call. */
async function runOnce(id: string): Promise<void> {
  const claimed = await relaxed.query<{ request: { task: string; agent_config: { system_prompt?: string } } }>(
    "UPDATE runs SET status = 'running', started_at = now() WHERE id = $1 AND status <> 'succeeded' RETURNING request",
    [id],
  );
  if (claimed.rowCount === 0) return;
  const { task, agent_config } = claimed.rows[0].request;
  const output = await callLlm({ system: agent_config.system_prompt ?? "", task });
  // On disk before the answer: the notice goes out only after this commit.
  await durable.query("UPDATE runs SET status = 'succeeded', result = $2, finished_at = now() WHERE id = $1", [
    id,
    JSON.stringify({ output }),
  ]);
  await redis.publish(FLOOR_KEYS.doneChannel, JSON.stringify({ id, output }));
}

/** BullMQ: a `Worker` with the real agent worker's options. */
function startBullmqWorker(): void {
  const worker = new Worker(FLOOR_KEYS.queue, async (job) => runOnce((job.data as { runId: string }).runId), {
    connection: new Redis(env("REDIS_URL"), { maxRetriesPerRequest: null }),
    concurrency: CONCURRENCY,
    lockDuration: LOCK_MS,
    stalledInterval: LOCK_MS,
    maxStalledCount: 2,
  });
  worker.on("error", (err) => console.error(`worker error: ${err.message}`));
}

/**
 * A plain Redis list: `BLMOVE` moves an id from the pending list to the claimed list (where a
 * crash leaves it, to be pushed back at the next start), and it leaves the claimed list once done.
 */
async function startListWorker(): Promise<void> {
  const blocking = new Redis(env("REDIS_URL"), { maxRetriesPerRequest: null });
  while ((await redis.lmove(FLOOR_KEYS.claimed, FLOOR_KEYS.pending, "RIGHT", "LEFT")) !== null);
  let running = 0;
  const free: (() => void)[] = [];
  for (;;) {
    if (running >= CONCURRENCY) await new Promise<void>((resolve) => free.push(resolve));
    const id = await blocking.blmove(FLOOR_KEYS.pending, FLOOR_KEYS.claimed, "RIGHT", "LEFT", 5);
    if (id === null) continue;
    running++;
    void runOnce(id)
      .then(() => redis.lrem(FLOOR_KEYS.claimed, 1, id))
      .catch((err: Error) => console.error(`run ${id} failed: ${err.message}`))
      .finally(() => {
        running--;
        free.shift()?.();
      });
  }
}

if ((env("FLOOR_QUEUE") as FloorQueue) === "bullmq") startBullmqWorker();
else void startListWorker();
console.log("floor worker ready");

// Exiting (rather than dying of the signal) writes the `--cpu-prof` profile when the bench stops it.
process.once("SIGTERM", () => process.exit(0));
