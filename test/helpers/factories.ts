import { randomUUID } from "node:crypto";
import type { DataSource } from "typeorm";
import { agentCompletionSchema } from "../../api/schemas/agent-request.schema";
import { swarmRequestSchema } from "../../api/schemas/swarm-request.schema";
import { contentHash } from "../../api/marketplace/prompts/duplicates";
import type { PromptPageRecord } from "../../shared/db/prompt-listing-store";
import type { ListingKind } from "../../shared/db/entities/prompt.entity";
import { createApiKey } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import type { RunKind, RunOfKind, RunStatus } from "../../shared/db/entities/run.entity";
import { newRunId } from "../../shared/db/run-id";
import { findRun } from "../../shared/db/runs/run-rows";
import { ensureUser, type UserRecord } from "../../shared/db/user-store";

/**
 * Rows for tests, made straight in the database (Outline's `test/factories.ts`): each factory fills
 * in what a test does not care about, so a test names only what it is about.
 */

/** A fresh user (a unique handle unless one is given). */
export async function createUser(ds: DataSource, handle = `user-${randomUUID()}`): Promise<UserRecord> {
  return ensureUser(ds, handle);
}

/** A fresh API key, of a fresh user unless `userId` names one; returns the key in full. */
export async function createKey(
  ds: DataSource,
  options: { userId?: string; name?: string; tier?: string } = {},
): Promise<{ key: string; keyId: string; userId: string }> {
  const userId = options.userId ?? (await createUser(ds)).id;
  const { key, record } = await createApiKey(ds, userId, options.name ?? "test", options.tier ?? "free");
  return { key, keyId: record.id, userId };
}

/** An agent request as the API stores it: the agent completion body with the schema's defaults applied. */
export function agentRequest(
  body: { agent_config?: Record<string, unknown>; task?: string } = {},
): AgentCompletionRequest {
  const { value, error } = agentCompletionSchema.validate({
    task: "Say something",
    ...body,
    agent_config: { agent_name: "Factory agent", ...body.agent_config },
  });
  if (error) throw error;
  return { ...value, stream: false };
}

/** A swarm request as the API stores it: the swarm completion body with the schema's defaults applied. */
function swarmRequest(body: Record<string, unknown> = {}): SwarmRequest {
  const { value, error } = swarmRequestSchema.validate({
    swarm_type: "SequentialWorkflow",
    task: "Say something",
    agents: [{ agent_name: "Factory agent" }],
    ...body,
  });
  if (error) throw error;
  return value;
}

/** A plausible stored request of each kind, for tests that do not care what the run asked for. */
function defaultRequest(kind: RunKind): unknown {
  switch (kind) {
    case "agent":
      return agentRequest();
    case "swarm":
      return swarmRequest();
    case "agent_batch":
      return { total_requests: 0 };
    case "swarm_batch":
      return { total_requests: 0, rejected: [] };
    case "token_launch":
      return {
        name: "Token",
        ticker: "TKN",
        image_url: null,
        fee_selection: "market",
        quote_mint: "SOL",
        creator_wallet: "",
        listing_id: randomUUID(),
      };
    case "prompt_tokenize":
      return { name: "Token", ticker: "TKN", image_url: null, creator_wallet: "", prompt_id: randomUUID() };
  }
}

/** What a run factory call may set; everything else gets a default (a queued run of a fresh key). */
export interface RunFixture<K extends RunKind> {
  kind: K;
  status?: RunStatus;
  /** The key (and its user) the run belongs to; a fresh one when left out. */
  owner?: { apiKeyId: string | null; userId: string | null };
  request?: RunOfKind<K>["request"];
  output?: RunOfKind<K>["output"];
  usage?: RunOfKind<K>["usage"];
  error?: RunOfKind<K>["error"];
  parentId?: string | null;
  itemIndex?: number | null;
  queuedAt?: Date;
}

/**
 * A run of any kind and status, stored directly (nothing is queued): a finished run gets start and
 * finish times, a running one a start time.
 */
export async function createRun<K extends RunKind>(ds: DataSource, fixture: RunFixture<K>): Promise<RunOfKind<K>> {
  const id = newRunId();
  const status = fixture.status ?? "queued";
  let owner = fixture.owner;
  if (!owner) {
    const made = await createKey(ds);
    owner = { apiKeyId: made.keyId, userId: made.userId };
  }
  const started = status !== "queued";
  const finished = started && status !== "running";
  await ds.query(
    `INSERT INTO runs (id, job_id, kind, parent_id, item_index, api_key_id, user_id, status, request, output, usage, error,
                       queued_at, started_at, finished_at, execution_time, attempts)
     VALUES ($1::uuid, $1::text, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, CASE WHEN $13 THEN $12::timestamptz END,
             CASE WHEN $14 THEN $12::timestamptz END, CASE WHEN $14 THEN 0 END, CASE WHEN $13 THEN 1 ELSE 0 END)`,
    [
      id,
      fixture.kind,
      fixture.parentId ?? null,
      fixture.itemIndex ?? null,
      owner.apiKeyId,
      owner.userId,
      status,
      JSON.stringify(fixture.request ?? defaultRequest(fixture.kind)),
      fixture.output === undefined ? null : JSON.stringify(fixture.output),
      fixture.usage === undefined ? null : JSON.stringify(fixture.usage),
      fixture.error === undefined ? null : JSON.stringify(fixture.error),
      fixture.queuedAt ?? new Date(),
      started,
      finished,
    ],
  );
  return (await findRun(ds, id)) as RunOfKind<K>;
}

/** A prompt row as tests write it: the page's record without what Postgres fills in. */
export type PromptRow = Omit<
  PromptPageRecord,
  | "id"
  | "user_id"
  | "prompt"
  | "created_at"
  | "review_count"
  | "rating_average"
  | "kind"
  | "language"
  | "requirements"
  | "moderation_reason"
> & {
  prompt: string;
  created_at: string;
  kind?: ListingKind;
  moderation_reason?: string | null;
};

/** A marketplace prompt inserted directly (as the prompt API would store it; approved unless told); returns its id. */
export async function createPrompt(
  ds: DataSource,
  userId: string,
  fields: Partial<PromptRow> & { id?: string } = {},
): Promise<string> {
  const { id: chosenId, ...given } = fields;
  const row: PromptRow = {
    name: "A prompt",
    prompt: `Prompt text ${randomUUID()}`,
    description: null,
    use_cases: [],
    tags: null,
    is_free: true,
    price_usd: null,
    price: null,
    category: null,
    status: "approved",
    tokenized_on: false,
    ticker: null,
    token_address: null,
    pool_address: null,
    image_url: null,
    links: [],
    created_at: new Date().toISOString(),
    ...given,
  };
  const [{ id }] = await ds.query(
    `INSERT INTO prompts (user_id, name, prompt, description, use_cases, tags, is_free, price_usd, price, category, status,
                          tokenized_on, ticker, token_address, pool_address, image_url, links, created_at, content_hash, id,
                          kind, moderation_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, COALESCE($20::uuid, gen_random_uuid()),
             $21, $22) RETURNING id`,
    [
      userId,
      row.name,
      row.prompt,
      row.description,
      JSON.stringify(row.use_cases),
      row.tags,
      row.is_free,
      row.price_usd,
      row.price,
      row.category,
      row.status,
      row.tokenized_on,
      row.ticker,
      row.token_address,
      row.pool_address,
      row.image_url,
      JSON.stringify(row.links),
      row.created_at,
      contentHash(row.prompt),
      chosenId ?? null,
      row.kind ?? "prompt",
      row.moderation_reason ?? null,
    ],
  );
  return id;
}
