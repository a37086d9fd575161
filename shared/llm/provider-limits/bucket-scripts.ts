import { luaScript } from "../../queues/lua-script";

/*
 * The Redis scripts behind the shared limits of one provider key (`provider-limiter.ts`). Each key
 * has one hash; its fields:
 *   rl, rw / tl, tw  the learned request / token limit and its window in ms (from the provider's headers)
 *   rt / tt          the GCRA "theoretical arrival time" of requests / tokens: the instant, in ms,
 *                    at which the window would be whole again had nothing more been sent
 *   p                the instant, in ms, until which a 429's retry-after pauses the key
 * GCRA (the generic cell rate algorithm) is a token bucket kept as one instant: a call of cost c
 * under a limit L per window W moves the instant by c·W/L, and fits while the instant stays at most
 * W ahead of now (a whole window's worth may go at once, as a provider's full bucket allows, less
 * a spare tenth: see TAKE_LUA).
 */

/** The clock: Redis's own (one clock for every process), or the caller's in tests. */
const NOW = `
local now
if ARGV[#ARGV] ~= '' then now = tonumber(ARGV[#ARGV]) else
  local t = redis.call('TIME'); now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

/** How long the hash outlives its last use: well past any window, so a learned limit survives a lull. */
const BUCKET_TTL_MS = 15 * 60_000;

/**
 * Takes one request and `cost` tokens from the key's limits now, or tells how long to wait.
 * A configured limit (ARGV 2, 3 with window ARGV 4; 0 = none) wins over a learned one.
 * KEYS: the key's hash. ARGV: cost tokens, configured rpm, configured tpm, configured window ms, now ('' = Redis).
 * Reply: {ms to wait (0: taken), request window use ‰, token window use ‰} (‰ −1: no such limit).
 */
const TAKE_LUA = `${NOW}
local v = redis.call('HMGET', KEYS[1], 'rl', 'rw', 'tl', 'tw', 'rt', 'tt', 'p')
local pause = tonumber(v[7] or '0')
if pause > now then return {math.ceil(pause - now), -1, -1} end
local cw = tonumber(ARGV[4])
local function limit(configured, learned, window)
  if configured > 0 then return configured, cw end
  return tonumber(learned or '0'), tonumber(window or '60000')
end
local rl, rw = limit(tonumber(ARGV[2]), v[1], v[2])
local tl, tw = limit(tonumber(ARGV[3]), v[3], v[4])
-- A call reaches the provider a little after its turn, and not always as long after as the one
-- before: a window's tenth (at most a second) is kept spare so that jitter never tips it over,
-- as long as that leaves room for this one call.
local function room(window, step) return math.max(window - math.min(window / 10, 1000), step) end
local wait, rt, tt = 0, nil, nil
if rl > 0 then
  rt = math.max(tonumber(v[5] or '0'), now) + rw / rl
  wait = math.max(wait, rt - now - room(rw, rw / rl))
end
if tl > 0 then
  local step = math.min(tonumber(ARGV[1]), tl) * tw / tl
  tt = math.max(tonumber(v[6] or '0'), now) + step
  wait = math.max(wait, tt - now - room(tw, step))
end
local ruse, tuse = -1, -1
if rt then ruse = math.floor(1000 * (rt - now) / rw) end
if tt then tuse = math.floor(1000 * (tt - now) / tw) end
if wait > 0 then return {math.ceil(wait), ruse, tuse} end
local taken = {}
if rt then taken[#taken + 1] = 'rt'; taken[#taken + 1] = rt end
if tt then taken[#taken + 1] = 'tt'; taken[#taken + 1] = tt end
if #taken > 0 then
  redis.call('HSET', KEYS[1], unpack(taken))
  redis.call('PEXPIRE', KEYS[1], ${BUCKET_TTL_MS})
end
return {0, ruse, tuse}
`;

/**
 * After a call: corrects the token instant by what the call really used against its estimate,
 * stores what the provider's headers taught (a limit, its window, the instant its window is whole
 * again: never earlier than ours) and a 429's pause.
 * KEYS: the key's hash. ARGV: token delta, configured tpm, configured window ms,
 * learned rl, its remaining, reset ms, its window ms ('' each when not reported), the same four for
 * tokens, pause ms (0 none), now ('' = Redis).
 */
const SETTLE_LUA = `${NOW}
local v = redis.call('HMGET', KEYS[1], 'tl', 'tw', 'rt', 'tt', 'p')
local delta, ctl, cw = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local tl, tw = tonumber(v[1] or '0'), tonumber(v[2] or '60000')
if ctl > 0 then tl, tw = ctl, cw end
if delta ~= 0 and tl > 0 then
  redis.call('HSET', KEYS[1], 'tt', math.max(tonumber(v[4] or '0'), now) + delta * tw / tl)
end
local function learn(base, lf, wf, tf, at)
  if ARGV[base] == '' then return end
  redis.call('HSET', KEYS[1], lf, ARGV[base])
  if ARGV[base + 3] ~= '' then redis.call('HSET', KEYS[1], wf, ARGV[base + 3]) end
  local whole = now + tonumber(ARGV[base + 2])
  if whole > tonumber(at or '0') then redis.call('HSET', KEYS[1], tf, whole) end
end
learn(4, 'rl', 'rw', 'rt', v[3])
learn(8, 'tl', 'tw', 'tt', redis.call('HGET', KEYS[1], 'tt'))
local pause = tonumber(ARGV[12])
if pause > 0 and now + pause > tonumber(v[5] or '0') then redis.call('HSET', KEYS[1], 'p', now + pause) end
redis.call('PEXPIRE', KEYS[1], ${BUCKET_TTL_MS} + pause)
return 1
`;

/** Takes a call's turn from a key's limits (see `TAKE_LUA`). */
export const takeTurn = luaScript("apiaryProviderTake", TAKE_LUA);
/** Corrects and teaches a key's limits after a call (see `SETTLE_LUA`). */
export const settleTurn = luaScript("apiaryProviderSettle", SETTLE_LUA);
