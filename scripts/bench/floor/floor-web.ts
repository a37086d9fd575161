import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import Redis from "ioredis";
import Koa from "koa";
import { koaBody } from "koa-body";
import { Pool } from "pg";
import { FLOOR_KEYS, FLOOR_POOL, type FloorQueue } from "./floor-variants";

// The floor's web process: the spine's contracts and nothing else. Started by the `floor` bench
// scenario as `node --import tsx scripts/bench/floor/floor-web.ts` with PORT, DATABASE_URL,
// REDIS_URL, FLOOR_QUEUE (bullmq | list) and FLOOR_API_KEY in its environment.

const ANSWER_TIMEOUT_MS = 60_000;
const env = (name: string) => process.env[name] ?? "";
const queueKind = env("FLOOR_QUEUE") as FloorQueue;

// The API key from an in-memory map (the product's keys live in Postgres behind a cache).
const accounts = new Map([[env("FLOOR_API_KEY"), "bench"]]);
// The row's insert need not wait for the disk, as the product's does not: a crash before the job
// runs loses an unanswered request, not a finished call.
const relaxed = new Pool({ ...FLOOR_POOL, max: 5, options: "-c synchronous_commit=off" });
const redis = new Redis(env("REDIS_URL"), { maxRetriesPerRequest: null });
const subscriber = new Redis(env("REDIS_URL"), { maxRetriesPerRequest: null });
// The real queue's job options: crash retries, and finished jobs kept by age and count.
const queue =
  queueKind === "bullmq"
    ? new Queue(FLOOR_KEYS.queue, {
        connection: redis,
        defaultJobOptions: {
          attempts: 3,
          backoff: { type: "exponential", delay: 1_000 },
          removeOnComplete: { age: 3_600, count: 20_000 },
          removeOnFail: { age: 7 * 24 * 3_600, count: 20_000 },
        },
      })
    : null;

/** Waiters by run id, resolved by the worker's done notice. */
const waiting = new Map<string, (output: unknown) => void>();
subscriber.on("message", (_channel: string, message: string) => {
  const notice = JSON.parse(message) as { id: string; output: unknown };
  waiting.get(notice.id)?.(notice.output);
});

function answerOf(id: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error("no answer in time"));
    }, ANSWER_TIMEOUT_MS);
    waiting.set(id, (output) => {
      clearTimeout(timer);
      waiting.delete(id);
      resolve(output);
    });
  });
}

async function enqueue(id: string): Promise<void> {
  if (queue) await queue.add("agent-run", { runId: id }, { jobId: id });
  else await redis.lpush(FLOOR_KEYS.pending, id);
}

const app = new Koa();
app.use(koaBody({ jsonLimit: "1mb" }));
app.use(async (ctx) => {
  if (ctx.method === "GET" && ctx.path === "/health") {
    ctx.body = { ok: true };
    return;
  }
  if (ctx.method !== "POST" || ctx.path !== "/v1/agent/completions") ctx.throw(404);
  const account = accounts.get(ctx.get("x-api-key"));
  if (!account) ctx.throw(401);
  const body = ctx.request.body as { task?: unknown; agent_config?: unknown } | undefined;
  // The one cheap check: the two fields the worker reads.
  if (typeof body?.task !== "string" || typeof body.agent_config !== "object" || body.agent_config === null)
    ctx.throw(422, "task and agent_config are required");
  const id = randomUUID();
  // Listening before the job exists, so a fast worker's notice cannot be missed.
  const answer = answerOf(id);
  answer.catch(() => undefined); // handled below; this keeps a failed insert from leaving it unhandled
  await relaxed.query("INSERT INTO runs (id, account, status, request) VALUES ($1, $2, 'queued', $3)", [
    id,
    account,
    body,
  ]);
  await enqueue(id);
  const output = await answer;
  ctx.body = { id, success: true, outputs: output };
});

void subscriber.subscribe(FLOOR_KEYS.doneChannel).then(() => {
  app.listen(Number(env("PORT")), "127.0.0.1", () => console.log(`floor web listening on ${env("PORT")}`));
});

// Exiting (rather than dying of the signal) writes the `--cpu-prof` profile when the bench stops it.
process.once("SIGTERM", () => process.exit(0));
