import type { RedisClient } from "./redis";
import { config } from "../config";
import { luaScript } from "./lua-script";

/** What a worker tells a streaming client about a run, in order. */
export type RunEvent =
  | { type: "start" }
  /** A piece of an answer's text; `choice`: which of a chat run's `n` answers (absent: the first). */
  | { type: "chunk"; content: string; agent?: string; choice?: number }
  /**
   * A piece of a tool call a chat run's answer makes (the client runs it): the first piece of a
   * call has its `id` and `name`, every piece a part of its JSON `arguments`.
   */
  | { type: "tool_call_delta"; choice: number; index: number; id?: string; name?: string; arguments: string }
  /** One answer of a chat run is complete: why it ended, and its log probabilities when asked for. */
  | { type: "choice_end"; choice: number; finish_reason: string; logprobs: unknown }
  | { type: "agent_start"; agent: string }
  | { type: "agent_end"; agent: string }
  | { type: "finish"; usage: unknown }
  | { type: "error"; error: string }
  /** The run parked until its client approves or rejects these tool calls (docs/approvals.md). */
  | { type: "awaiting_approval"; tool_calls: { id: string; agent_name: string; name: string; arguments: string }[] };

/**
 * An agent's whole answer as one chunk event: how a run not streamed records it, and how a stream
 * tells an answer whose chunks it lost (an answer of tool calls is told as their JSON).
 */
export function answerChunk(content: unknown, agent?: string): RunEvent {
  const text = typeof content === "string" ? content : JSON.stringify(content);
  return agent === undefined ? { type: "chunk", content: text } : { type: "chunk", agent, content: text };
}

/**
 * Whose chunks are merged together: an agent's (`a:` and its name), one of a chat run's answers
 * past the first (`c:` and its index), or the lone answer's ("").
 */
function chunkLane(event: { agent?: string; choice?: number }): string {
  if (event.agent !== undefined) return `a:${event.agent}`;
  return event.choice ? `c:${event.choice}` : "";
}

/** The chunk event for merged text of one lane (`chunkLane`). */
function chunkOfLane(lane: string, content: string): RunEvent {
  if (lane.startsWith("a:")) return { type: "chunk", agent: lane.slice(2), content };
  if (lane.startsWith("c:")) return { type: "chunk", choice: Number(lane.slice(2)), content };
  return { type: "chunk", content };
}

/**
 * The Redis stream holding one run's events (kept an hour after the last write), under the key
 * prefix of its account's shard (`accountPrefix`).
 */
export const runEventsKey = (runId: string, prefix = config.queue.prefix) => `${prefix}:run-events:${runId}`;
const TTL_SECONDS = 3_600;
/**
 * Entries a run's stream keeps (`MAXLEN ~`), the record a client reads the run from. Coalesced
 * chunks (below) make at most one entry per streaming agent per `CHUNK_FLUSH_MS` plus one per
 * `CHUNK_FLUSH_CHARS`: an agent streaming for the whole of a 900-second run deadline writes about
 * 18,000, and the 600,000 characters of a model answer at its bound about 150, so two agents
 * streaming side by side all run long still fit. At about 150 bytes of overhead an entry, a full
 * stream is about 7.5 MB beside the text it carries. A run past it loses its oldest entries, which
 * its readers detect (`RunEventEntry.n`).
 */
const MAX_EVENTS = 50_000;
/** How long a chunk may wait for the next ones of its agent before it is written. */
const CHUNK_FLUSH_MS = 50;
/** Characters of chunks waiting for one write past which they are written at once. */
const CHUNK_FLUSH_CHARS = 4_096;

/**
 * Adds an event numbered one past the stream's last entry (0 for a new stream), so a reader can
 * tell a gap (entries trimmed before it read them, or the stream expired) from the numbers alone;
 * the number is taken in Redis, so a retried execution's writer continues where the last stopped.
 */
const APPEND_LUA = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local n = 0
if last[1] then
  local f = last[1][2]
  for i = 1, #f - 1, 2 do
    if f[i] == 'n' then n = tonumber(f[i + 1]) + 1 end
  end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'e', ARGV[2], 'n', n)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return id
`;
const appendScript = luaScript("apiaryRunEventAppend", APPEND_LUA);

/**
 * Appends a run's events to its Redis stream. A model streams its answer in many small chunks
 * (a 600,000-character answer came as about 46,000), more than a stream should keep or a reader
 * can relay before the stream trims them: consecutive chunks of an agent are merged into one
 * event, written within `CHUNK_FLUSH_MS` or at `CHUNK_FLUSH_CHARS`,
 * whichever comes first, and always before any other event. A chunk after a quiet spell (the
 * first of a model call: a provider's first token takes longer than `CHUNK_FLUSH_MS`) is written at once.
 * Writes are not awaited by the caller; each follows the last (a script sent before Redis knows
 * it is resent, which would otherwise reorder it), and `flush` writes what waits and waits for it.
 */
export class RunEventWriter {
  private last: Promise<unknown> = Promise.resolve();
  /** Chunks waiting to be written, per agent ("" for a lone agent), in the order they began. */
  private readonly pending = new Map<string, string>();
  private pendingChars = 0;
  /** When each agent's chunks were last written. */
  private readonly writtenAt = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  /** `prefix`: the key prefix of the run's account's shard (`accountPrefix`). */
  constructor(
    private readonly redis: RedisClient,
    private readonly runId: string,
    private readonly maxEvents = MAX_EVENTS,
    private readonly prefix = config.queue.prefix,
  ) {}

  emit(event: RunEvent): void {
    if (event.type !== "chunk") {
      this.writeChunks();
      this.append(event);
      return;
    }
    const agent = chunkLane(event);
    const waiting = this.pending.get(agent);
    if (waiting === undefined && Date.now() - (this.writtenAt.get(agent) ?? 0) >= CHUNK_FLUSH_MS) {
      this.writtenAt.set(agent, Date.now());
      this.append(event);
      return;
    }
    this.pending.set(agent, (waiting ?? "") + event.content);
    this.pendingChars += event.content.length;
    if (this.pendingChars >= CHUNK_FLUSH_CHARS) this.writeChunks();
    else this.timer ??= setTimeout(() => this.writeChunks(), CHUNK_FLUSH_MS);
  }

  /** Writes what waits, then waits until Redis has every event emitted so far. */
  async flush(): Promise<void> {
    this.writeChunks();
    await this.last;
  }

  private writeChunks(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = Date.now();
    for (const [agent, content] of this.pending) {
      this.writtenAt.set(agent, now);
      this.append(chunkOfLane(agent, content));
    }
    this.pending.clear();
    this.pendingChars = 0;
  }

  private append(event: RunEvent): void {
    const args = [this.maxEvents, JSON.stringify(event), TTL_SECONDS];
    const key = runEventsKey(this.runId, this.prefix);
    this.last = this.last.then(() => appendScript(this.redis, [key], args).catch(() => undefined));
  }
}

/**
 * One event as its stream holds it: the entry's id (where a reader resumes), the event, and its
 * number in the run's stream (consecutive from 0; absent on entries written before numbering).
 */
export interface RunEventEntry {
  id: string;
  event: RunEvent;
  n?: number;
}

/** A stream's raw entries (`[id, ["e", json, "n", number]]`) as events. */
export function parseRunEvents(entries: [string, string[]][]): RunEventEntry[] {
  return entries.map(([id, fields]) => ({
    id,
    event: JSON.parse(fields[1]) as RunEvent,
    ...(fields[2] === "n" ? { n: Number(fields[3]) } : {}),
  }));
}

/**
 * Up to `count` of a run's events after `afterId`, without blocking: safe on a shared connection.
 * Following a run as it goes is `RunEventFollower`'s job.
 */
export async function readRunEventsAfter(
  redis: RedisClient,
  runId: string,
  afterId: string,
  count: number,
  prefix = config.queue.prefix,
): Promise<RunEventEntry[]> {
  const reply = (await redis.xread("COUNT", count, "STREAMS", runEventsKey(runId, prefix), afterId)) as
    [string, [string, string[]][]][] | null;
  return reply ? parseRunEvents(reply[0][1]) : [];
}

/**
 * The number of the last event a run's record holds (`n`), -1 for entries written before
 * numbering, or null when the record does not exist (never written, or expired).
 */
export async function lastRunEventNumber(
  redis: RedisClient,
  runId: string,
  prefix = config.queue.prefix,
): Promise<number | null> {
  const [last] = (await redis.xrevrange(runEventsKey(runId, prefix), "+", "-", "COUNT", 1)) as [string, string[]][];
  return last ? (parseRunEvents([last])[0].n ?? -1) : null;
}
