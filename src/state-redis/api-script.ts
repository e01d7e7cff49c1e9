import { LIBRARY } from './lua-library.js';

/**
 * "Decide this request", the one script an API request waits for: it appends the journal entries
 * of earlier answers, then takes the session, its clock, the rate limit, the scenario's step or
 * chaos draw, the latency draw and the operation's store access. ARGV[2] is one JSON object of
 * named fields (`DecideInput` in redis-plan.ts, with the session and the journal
 * entries' bounds); the entries follow as ARGV[3…] as the journal keeps them, "BYTES JSON". The
 * answer is one JSON object.
 * Optional fields may be left out: an absent one reads as '', false, 0 or empty (see OPTIONAL).
 */
export const API_BODY = `
local q = cjson.decode(ARGV[2])
local sid = q.sid
local mk = metaKey(sid)
local bf = 'b:' .. q.bucket
-- The session's fields and the request's bucket in one read; written back in one HSET at the end.
local function read() return redis.call('HMGET', mk, 'set', 'off', 'fz', 'st', 'tk', 'cs', 'ls', 'nid', 'do', 'ep', 'ev', 'pc', 'cb', 'jseq', 'jb', bf) end
local meta = read()
local jb0 = tonumber(meta[15] or '0')
-- The pending set :jp holds the numbers of decisions whose journal entries are still on their
-- way (score: when they are let go); a landed one is marked with score 0 in the same ZADD that
-- adds this decision, and marked ones go in passing (and before each journal read).
local jp = {}
local jb = appendJournal(q.journal or {}, 3, sid, meta[10], jb0, jp)
local w = {}
if jb ~= jb0 then w[1] = 'jb'; w[2] = s(jb) end
local function answer(out)
  if #w > 0 then redis.call('HSET', mk, unpack(w)) end
  if #jp > 0 then redis.call('ZADD', mk .. ':jp', unpack(jp)) end
  return cjson.encode(out)
end
if not meta[1] then
  if not createSession(sid, q.max) then return cjson.encode({ st = 'unregistered' }) end
  meta = read()
end
useSession(sid)
if meta[1] ~= q.set then return answer({ st = 'stale', set = meta[1] }) end
-- Said once: this session's earlier world was dropped to make room.
local ev = meta[11] or ''
if ev ~= '' then redis.call('HDEL', mk, 'ev') end
-- Last use, for GET /__admin/sessions (API requests only, as in memory), and the journal entry's
-- number now, in the order of decisions; the entry follows with a later call, and until it
-- lands (or 2 s pass) journal reads wait for it.
local real, micros = realBoth()
local seq = tonumber(meta[14] or '0') + 1
w[#w + 1] = 'lu'; w[#w + 1] = s(micros); w[#w + 1] = 'jseq'; w[#w + 1] = s(seq)
jp[#jp + 1] = real + 2000
jp[#jp + 1] = seq
if seq % 8 == 0 then redis.call('ZREMRANGEBYSCORE', mk .. ':jp', '-inf', real) end
local now = clockNow(meta[2], meta[3], real)
local out = { st = 'ok', now = s(now), real = s(real), details = meta[9] or '', seq = seq, ep = meta[10], evicted = ev }
local b
local function bucket()
  if not b then b = bucketOf(mk, q.bucket, meta[16], now) end
  return b
end
if q.mode == 'peek' then
  out.decision = peekBucket(bucket(), q.pm, q.pd, now)
  w[#w + 1] = bf; w[#w + 1] = packBucket(b)
  return answer(out)
end
local op = q.op or ''
local enforce = q.enforce == 'yes' or (q.enforce == 'removal' and now < (q.removalAt or 0))
local rule = q.rule or { after = 0, ms = 0, inFlight = 0 }
local d
if now >= MAXI then
  d = { outcome = 'allowed', report = { limit = q.pd, remaining = q.pd, reset = s(MAXI / 1000) } }
else
  d = takeBucket(bucket(), q.pm, q.pd, now, enforce, rule)
end
out.decision = d
if enforce and d.outcome == 'allowed' and op ~= '' then
  -- The scenario's step or chaos, for an allowed operation.
  local forced = 'n'
  local steps, chaos = q.steps or '', q.chaos or {}
  local st, tk = tonumber(meta[4]), tonumber(meta[5])
  if st < #steps and string.sub(steps, st + 1, st + 1) ~= '-' then
    out.step = st
    tk = tk + 1
    out.nth = tk
    forced = string.sub(steps, st + 1, st + 1)
    local times = (q.times or {})[st + 1] or 0
    if times > 0 and tk >= times then
      tk = 0
      st = st + 1
      if st == #steps and q.rep then st = 0 end
    end
    w[#w + 1] = 'st'; w[#w + 1] = s(st); w[#w + 1] = 'tk'; w[#w + 1] = s(tk)
  elseif #chaos > 0 then
    local state, value = draw(tonumber(meta[6]))
    w[#w + 1] = 'cs'; w[#w + 1] = s(state)
    out.chaos = value
    local x = value / 4294967296
    for _, a in ipairs(chaos) do
      if x < a.p then forced = a.c; break end
      x = x - a.p
    end
  end
  if forced == 'r' then refundBucket(bucket()) end
  if forced == 'n' then
    local status = q.status or ''
    if op == 'list' and (q.count or 0) > 0 then
      local lk = status == '' and mk .. ':p' or mk .. ':p:' .. status
      out.data = redis.call('LRANGE', lk, 0, q.count - 1)
    elseif op == 'get' then
      out.data = redis.call('LINDEX', mk .. ':p', q.index or 0)
    elseif op == 'create' then
      -- The store's bounds, in the order store.ts checks them: an id a JSON client reads exactly, then room.
      local id, pc, cb, bytes = tonumber(meta[8]), tonumber(meta[12] or '0'), tonumber(meta[13] or '0'), q.bytes or 0
      if id > 9007199254740991 then
        out.full = 'id'
      elseif pc >= (q.maxCreated or 0) or cb + bytes > (q.maxBytes or 0) then
        out.full = 'room'
      else
        local json = '{"id":' .. s(id) .. (q.tail or '')
        w[#w + 1] = 'nid'; w[#w + 1] = s(id + 1); w[#w + 1] = 'pc'; w[#w + 1] = s(pc + 1); w[#w + 1] = 'cb'; w[#w + 1] = s(cb + bytes)
        redis.call('RPUSH', mk .. ':p', json)
        if status ~= '' then redis.call('RPUSH', mk .. ':p:' .. status, json) end
        out.data = s(id)
      end
    end
  end
end
if b then w[#w + 1] = bf; w[#w + 1] = packBucket(b) end
if q.lat and d.outcome ~= 'peeked' then
  local state, value = draw(tonumber(meta[7]))
  w[#w + 1] = 'ls'; w[#w + 1] = s(state)
  out.latency = value
end
return answer(out)
`;

/** The API script as one EVAL script: the library, then the body. */
export const API_SCRIPT = `${LIBRARY}${API_BODY}`;

/** The fields of `DecideInput` (and the journal list) the API script reads as '', false, 0 or empty when absent. */
const OPTIONAL = new Set([
  'enforce',
  'removalAt',
  'rule',
  'steps',
  'times',
  'rep',
  'chaos',
  'lat',
  'op',
  'status',
  'count',
  'index',
  'tail',
  'bytes',
  'maxCreated',
  'maxBytes',
  'journal',
]);

/**
 * The script's input without the optional fields that hold their empty value, and without the
 * removal date unless the limit depends on it: less JSON for Redis to decode on every request.
 */
export function leanInput(input: Record<string, unknown>): Record<string, unknown> {
  const lean: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const empty = value === '' || value === false || value === 0 || (Array.isArray(value) && value.length === 0);
    if ((empty && OPTIONAL.has(name)) || (name === 'removalAt' && input.enforce !== 'removal')) continue;
    lean[name] = value;
  }
  return lean;
}
