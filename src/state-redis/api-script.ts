import { LIBRARY } from './lua-library.js';
import { HOME_STEPS_LUA } from './home-steps-lua.js';

/**
 * "Decide these requests", the one script an API request waits for. ARGV[2] is one JSON object:
 * `u`, the distinct inputs of a batch's decisions (`DecideInput`s of api-input.ts with session,
 * settings id and the sessions' bound; absent fields read as empty), `d`, the decisions in order as
 * positions in `u` (from 0; without `d` the object is a batch of one), and `journal`, the runs of
 * entries of earlier answers (appendJournal), whose texts follow as ARGV[3…]. The answer (answers.ts):
 * `real` (Redis's time), `cx`, what a session's decisions share (`now`, `details`, `ep`), and `o`,
 * one object per decision naming its session's by position (`x`, from 1). Each decision is taken as
 * it would be alone, in order; a batch shares the cost: one TIME, the entries appended once, and per
 * session one HMGET and one HSET, its fields held here in between.
 */
export const API_BODY = `
local q0 = cjson.decode(ARGV[2])
local items = {}
-- Each distinct input is sent once (u), the decisions name theirs by position (d): decoding is paid per input.
if q0.d == nil then items[1] = q0 else for i, ix in ipairs(q0.d) do items[i] = q0.u[ix + 1] end end
-- Per session: its fields (f), the names written (w), its buckets as read or decoded (raw), those
-- to write (bw), and its journal entries still on their way by slot (q).
local C = {}
local function load(sid)
  local c = C[sid]
  if c then return c end
  local args, at = { unpack(SESSION_FIELDS) }, {}
  for _, q in ipairs(items) do
    if q.sid == sid and not at[q.bucket] then
      args[#args + 1] = 'b:' .. q.bucket
      at[q.bucket] = #args
    end
  end
  local mk = metaKey(sid)
  local m = redis.call('HMGET', mk, unpack(args))
  local f = {}
  for i, name in ipairs(SESSION_FIELDS) do f[name] = m[i] end
  c = { sid = sid, mk = mk, f = f, w = {}, raw = {}, bw = {}, q = pendingOf(f.jq) }
  for id, i in pairs(at) do c.raw[id] = m[i] end
  C[sid] = c
  return c
end
-- What the decision being taken changed (session, name, old value, old flag, in fours), to put back
-- should it fail: an undo log is cheaper than a copy per decision.
local undo, un = {}, 0
local function note(c, name)
  undo[un + 1] = c; undo[un + 2] = name; undo[un + 3] = c.f[name]; undo[un + 4] = c.w[name]
  un = un + 4
end
-- note's work written out: put runs a few times per decision, and a call costs more than the four stores.
local function put(c, name, value)
  local f, w = c.f, c.w
  undo[un + 1] = c; undo[un + 2] = name; undo[un + 3] = f[name]; undo[un + 4] = w[name]
  un = un + 4
  f[name] = value; w[name] = true
end
local real, micros = realBoth()
-- Started after the instance gave up on this call (it answered 503: nothing happened), so nothing may happen.
if q0.dl and real > q0.dl then return '{"expired":true}' end
local realText, microsText = s(real), s(micros)
local cx = {}
-- Sessions used, in order: each moves up the eviction order once, by its last use.
local used = {}
-- Animals created, per list, pushed in one RPUSH at the end (or before a read of that list).
local pushes, pushed, owner = {}, {}, {}
local function push(key, json, sid)
  local l = pushes[key]
  if not l then
    l = {}
    pushes[key] = l
    pushed[#pushed + 1] = key
    owner[key] = sid
  end
  l[#l + 1] = json
end
local function pushNow(key)
  local l = pushes[key]
  if l then redis.call('RPUSH', key, unpack(l)); pushes[key] = nil end
end
-- Sessions whose writes failed at the end: their decisions of this call fail, the others stand.
local broken = {}
local function writeSession(c)
  local h = {}
  for name in pairs(c.w) do h[#h + 1] = name; h[#h + 1] = c.f[name] end
  for id, b in pairs(c.bw) do h[#h + 1] = 'b:' .. id; h[#h + 1] = packBucket(b) end
  local jq = pendingText(c.q, real)
  if jq ~= (c.f.jq or '') then h[#h + 1] = 'jq'; h[#h + 1] = jq end
  if #h > 0 then redis.call('HSET', c.mk, unpack(h)) end
end
local function write()
  for _, key in ipairs(pushed) do
    local ok, err = pcall(pushNow, key)
    if not ok then broken[owner[key]] = err; pushes[key] = nil end
  end
  pushed = {}
  if #used > 0 then
    local last, order = {}, {}
    for i, sid in ipairs(used) do last[sid] = i end
    for i, sid in ipairs(used) do if last[sid] == i then order[#order + 1] = sid end end
    used = {}
    local top = redis.call('INCRBY', P .. ':lru', #order)
    local z = {}
    for i, sid in ipairs(order) do z[#z + 1] = top - #order + i; z[#z + 1] = sid end
    redis.call('ZADD', P .. ':sessions', unpack(z))
  end
  -- Written once: a createSession, the one caller before the end, forgets every session after.
  for _, c in pairs(C) do
    local ok, err = pcall(writeSession, c)
    if not ok then broken[c.sid] = err end
  end
end
-- A session that cannot be read fails its own decisions (below), not the batch.
for _, q in ipairs(items) do if not C[q.sid] then pcall(load, q.sid) end end
-- Each decision's entry counts as on its way (jq) until it lands with a later call.
local slot = pendingSlot(real)
appendJournal(q0.journal or {}, 3, C, real)
local function bucketIn(c, id, now, lim)
  local b = c.raw[id]
  if type(b) == 'table' then
    rollBucket(b, now)
  else
    if b == nil then b = redis.call('HGET', c.mk, 'b:' .. id) end
    local gone
    b, gone = bucketOf(c.mk, id, b, now, lim)
    if gone then c.raw[gone] = false; c.bw[gone] = nil end
    c.raw[id] = b
  end
  c.bw[id] = b
  return b
end
local function decide(q)
  local sid = q.sid
  local c = load(sid)
  if not c.f.set then
    write()
    local made, victim = createSession(sid, q.max)
    C = {}
    if victim then return { st = 'evict', victim = victim } end
    if not made then return { st = 'unregistered' } end
    c = load(sid)
  end
  if sid ~= 'default' then used[#used + 1] = sid end
  if c.f.set ~= q.set then return { st = 'stale', set = c.f.set } end
  local mk = c.mk
  -- Said once: this session's earlier world was dropped to make room.
  local ev = c.f.ev or ''
  if ev ~= '' then redis.call('HDEL', mk, 'ev'); note(c, 'ev'); c.f.ev = false end
  -- The journal entry's number now, in the order of decisions; last use (API requests only, as in
  -- memory) is the call's one instant, written by the first decision (or the next, should it fail).
  local seq = tonumber(c.f.jseq or '0') + 1
  if c.f.lu ~= microsText then put(c, 'lu', microsText) end
  put(c, 'jseq', s(seq))
  c.q[slot] = (c.q[slot] or 0) + 1
  -- What the session's decisions share is encoded once, in cx: encoding is a good part of a decision's cost.
  local now = c.now
  if not now then
    now = clockNow(c.f.off, c.f.fz, real)
    c.now = now
    cx[#cx + 1] = { now = s(now), details = c.f['do'] or '', ep = c.f.ep }
    c.x = #cx
  end
  local out = { x = c.x, seq = seq }
  if ev ~= '' then out.evicted = ev end
  local b
  local function bucket()
    if not b then b = bucketIn(c, q.bucket, now, q.lim) end
    return b
  end
  if q.mode == 'peek' then
    out.decision = peekBucket(bucket(), q.lim, now)
    return out
  end
  local op = q.op or ''
${HOME_STEPS_LUA}
  return out
end
-- A decision that fails (a Redis error, a fault) fails alone: what it changed is put back.
local function errText(e)
  if type(e) == 'table' then return e.err or cjson.encode(e) end
  return tostring(e)
end
-- A decoded bucket is changed in place: its numbers are kept here (one table for every decision,
-- so keeping them allocates nothing) and written back should the decision fail.
local kept = { n = 0 }
local function keepBucket(b)
  kept.wf, kept.wu, kept.ct, kept.bu, kept.fg, kept.n = b.wf, b.wu, b.ct, b.bu, b.fg, b.n
  for k = 1, 3 * b.n do kept[k] = b[k] end
end
local function restoreBucket(b)
  for k = 3 * b.n, 3 * kept.n + 1, -1 do b[k] = nil end
  b.wf, b.wu, b.ct, b.bu, b.fg, b.n = kept.wf, kept.wu, kept.ct, kept.bu, kept.fg, kept.n
  for k = 1, 3 * kept.n do b[k] = kept[k] end
end
local function attempt(q)
  un = 0
  local c, nused = C[q.sid], #used
  local waiting, b, bw
  if c then
    waiting, b, bw = c.q[slot], c.raw[q.bucket], c.bw[q.bucket]
    if type(b) == 'table' then keepBucket(b) end
  end
  local ok, out = pcall(decide, q)
  if ok then return out end
  for i = un - 3, 1, -4 do
    local at, name = undo[i], undo[i + 1]
    at.f[name], at.w[name] = undo[i + 2], undo[i + 3]
  end
  if c and C[q.sid] == c then
    c.q[slot] = waiting
    if type(b) == 'table' then restoreBucket(b) end
    c.raw[q.bucket] = b
    c.bw[q.bucket] = bw
  end
  for i = #used, nused + 1, -1 do used[i] = nil end
  return { st = 'error', err = errText(out) }
end
local outs = {}
for i, q in ipairs(items) do outs[i] = attempt(q) end
write()
if next(broken) then
  for i, q in ipairs(items) do
    if broken[q.sid] and outs[i].st == 'ok' then outs[i] = { st = 'error', err = errText(broken[q.sid]) } end
  end
end
return cjson.encode({ real = realText, cx = cx, o = outs })
`;

/** The API script as one EVAL script: the library, then the body. */
export const API_SCRIPT = `${LIBRARY}${API_BODY}`;
