// The scripts other than the API request's (api-script.ts) and the deployment's (deployment-scripts.ts):
// the admin calls, the journal's flush and storing settings. Each takes and answers named fields.

import { SNAPSHOT_FIELDS } from './redis-snapshot.js';

export { API_BODY, API_SCRIPT } from './api-script.js';

/**
 * Appends journal entries that no API request has carried yet (JournalInput, JournalAnswer). The
 * texts stay positional, ARGV[3…], as in the API script: inside the JSON they would be escaped
 * twice and decoded into Lua strings only to be pushed unchanged.
 */
export const JOURNAL_BODY = `
local q = cjson.decode(ARGV[2])
appendJournal(q.runs, 3, nil, realNow())
return cjson.encode({ status = 'ok', runs = #q.runs })
`;

/**
 * The admin calls. ARGV[2] is a JSON object: sid, max (sessions), action, arg, and for `peek` the
 * buckets to report. Actions: state (clock and settings id), reset, apply (arg: settings id),
 * restore (arg: settings id; rs: what redis-snapshot.ts made of a snapshot, written at once),
 * clock (arg: freeze | unfreeze | set:MS | advance:MS, comma-separated, applied in order),
 * journal, jinfo, details (arg: 1 | 0), evictions, sessions, peek, snapshot (the session's fields,
 * buckets, animals and journal, read at one instant: see snapshotOf). The answer is one JSON object
 * with the settings id, the clock's now and whether it is frozen, and the action's `extra`.
 * Reading a session (state, journal, jinfo, peek) does not count as using it; reading one that
 * does not exist neither creates it nor evicts another: a fresh copy is read and dropped.
 */
export const ADMIN_BODY = `
if redis.call('EXISTS', P .. ':deploy') == 0 then return cjson.encode({ st = 'unregistered' }) end
local q = cjson.decode(ARGV[2])
-- Started after the instance gave up on this call (it answered 503), so it changes nothing.
if q.dl and realNow() > q.dl then return cjson.encode({ st = 'expired' }) end
local action = q.action
-- Everything a snapshot document holds of the session beyond its settings, read in this one call.
local SNAPSHOT_FIELDS = { ${SNAPSHOT_FIELDS.map((name) => `'${name}'`).join(', ')} }
local function snapshotOf(mk)
  local v, f = redis.call('HMGET', mk, unpack(SNAPSHOT_FIELDS)), {}
  for i, name in ipairs(SNAPSHOT_FIELDS) do f[name] = v[i] or '' end
  local buckets = {}
  for _, id in ipairs(redis.call('LRANGE', mk .. ':bo', 0, -1)) do
    local raw = redis.call('HGET', mk, 'b:' .. id)
    if raw then
      local v = bucketNumbers(unpackBucket(raw))
      local out = { id }
      -- As digits: JSON numbers would keep only 14 of an instant's 16.
      for i = 1, #v do out[i + 1] = s(v[i]) end
      buckets[#buckets + 1] = out
    end
  end
  -- Each declared operation's count of calls (its field d:<operationId>); an admin read, so a scan is fine.
  local d, cursor = {}, '0'
  repeat
    local r = redis.call('HSCAN', mk, cursor, 'MATCH', 'd:*', 'COUNT', 1000)
    cursor = r[1]
    for i = 1, #r[2], 2 do d[string.sub(r[2][i], 3)] = tonumber(r[2][i + 1]) end
  until cursor == '0'
  return { f = f, real = s(realNow()), b = buckets, p = redis.call('LRANGE', mk .. ':p', 0, -1), j = redis.call('LRANGE', mk .. ':j', 0, -1), d = d }
end
-- Pushes texts onto a list in runs small enough for unpack.
local function pushAll(key, texts)
  for i = 1, #texts, 1000 do redis.call('RPUSH', key, unpack(texts, i, math.min(#texts, i + 999))) end
end
-- Writes a snapshot's state (redis-snapshot.ts) over a session whose settings were just applied:
-- its fields as redis-snapshot.ts wrote them (the clock's here, from Redis time), the document's
-- buckets in place of the settings' presets; the last eviction is no longer news.
local function restoreInto(mk, r)
  for _, id in ipairs(redis.call('LRANGE', mk .. ':bo', 0, -1)) do redis.call('HDEL', mk, 'b:' .. id) end
  redis.call('DEL', mk .. ':bo')
  redis.call('HDEL', mk, 'ev')
  local off, fz = 0, ''
  if r.frozen then fz = s(r.now) else off = r.now - realNow() end
  local fields = { 'off', s(off), 'fz', fz }
  for name, value in pairs(r.f) do fields[#fields + 1] = name; fields[#fields + 1] = value end
  redis.call('HSET', mk, unpack(fields))
  local ids = {}
  for i, b in ipairs(r.b) do
    ids[i] = b.id
    redis.call('HSET', mk, 'b:' .. b.id, packBucket(numbersBucket(b.v)))
  end
  pushAll(mk .. ':bo', ids)
  local all, byStatus = {}, {}
  for i, pet in ipairs(r.p) do
    all[i] = pet.j
    if pet.s ~= '' then
      byStatus[pet.s] = byStatus[pet.s] or {}
      table.insert(byStatus[pet.s], pet.j)
    end
  end
  pushAll(mk .. ':p', all)
  for status, texts in pairs(byStatus) do pushAll(mk .. ':p:' .. status, texts) end
  pushAll(mk .. ':j', r.j)
  for id, n in pairs(r.d or {}) do redis.call('HSET', mk, 'd:' .. id, s(n)) end
end
local READS = { state = true, journal = true, jinfo = true, peek = true, snapshot = true }
local sid = q.sid
local mk
local scratch = false
if READS[action] and sid ~= 'default' then
  -- Looking counts as no use: it moves no session up the eviction order, as in memory.
  mk = metaKey(sid)
  if redis.call('EXISTS', mk) == 0 then
    -- No session id holds a space: this name is never a real session's.
    sid = ' look'
    scratch = true
    if not applySettings(sid, 'start') then return cjson.encode({ st = 'unregistered' }) end
    mk = metaKey(sid)
  end
else
  local victim
  mk, victim = touch(sid, q.max)
  if victim then return cjson.encode({ st = 'evict', victim = victim }) end
end
if not mk then return cjson.encode({ st = 'unregistered' }) end
local extra = {}
if action == 'journal' or action == 'jinfo' or action == 'details' or action == 'snapshot' then
  if pendingText(pendingOf(redis.call('HGET', mk, 'jq')), realNow()) ~= '' then return cjson.encode({ st = 'pending' }) end
end
if action == 'reset' then
  local set = redis.call('HGET', mk, 'set')
  -- The caller declared the settings it guessed (their key is read): another guess is tried again.
  if set ~= q.set then return cjson.encode({ st = 'stale', set = set }) end
  if not applySettings(sid, set) then return cjson.encode({ st = 'missing', set = set }) end
elseif action == 'apply' or action == 'restore' then
  if not applySettings(sid, q.arg) then return cjson.encode({ st = 'missing', set = q.arg }) end
  if action == 'restore' then restoreInto(mk, q.rs) end
elseif action == 'clock' then
  for op, arg in string.gmatch(q.arg, '(%a+):?(-?%d*)') do
    local meta = redis.call('HMGET', mk, 'off', 'fz')
    local now = clockNow(meta[1], meta[2])
    local frozen = meta[2] ~= nil and meta[2] ~= '' and meta[2] ~= false
    if op == 'freeze' then
      if not frozen then redis.call('HSET', mk, 'fz', s(now)) end
    elseif op == 'unfreeze' then
      if frozen then redis.call('HSET', mk, 'off', s(tonumber(meta[2]) - realNow()), 'fz', '') end
    else
      local target = tonumber(arg)
      if op == 'advance' then target = now + target end
      if frozen then redis.call('HSET', mk, 'fz', s(target)) else redis.call('HSET', mk, 'off', s(target - realNow())) end
    end
  end
elseif action == 'journal' then
  extra = redis.call('LRANGE', mk .. ':j', 0, -1)
elseif action == 'details' then
  redis.call('HSET', mk, 'do', q.arg)
elseif action == 'snapshot' then
  extra = { snapshotOf(mk) }
elseif action == 'evictions' then
  for _, id in ipairs(redis.call('ZRANGE', P .. ':evictions', 0, -1)) do
    local at, entries = string.match(redis.call('HGET', P .. ':evicted', id) or '0,0', '^(%d+),(%d+)')
    extra[#extra + 1] = { session = id, at = at, entries = tonumber(entries) }
  end
elseif action == 'sessions' then
  -- Every session: id, settings id, answered requests, last use, clock; the default first.
  -- Least recently touched first, as the in-memory registry keeps them: ties in last use keep that order.
  local ids = redis.call('ZRANGE', P .. ':sessions', 0, -1)
  -- Each session's hash must have been declared: a list that changed since the caller read it is read again.
  for _, id in ipairs(ids) do
    if not isDeclared(metaKey(id)) then return cjson.encode({ st = 'relist' }) end
  end
  table.insert(ids, 1, 'default')
  for _, id in ipairs(ids) do
    local m = redis.call('HMGET', metaKey(id), 'set', 'jseq', 'lu', 'off', 'fz')
    if m[1] then extra[#extra + 1] = { id = id, set = m[1], total = tonumber(m[2]), lastUsed = m[3], now = s(clockNow(m[4], m[5])) } end
  end
end
local meta = redis.call('HMGET', mk, 'set', 'off', 'fz')
local now = clockNow(meta[2], meta[3])
if action == 'peek' then
  for _, b in ipairs(q.peeks) do extra[#extra + 1] = peek(mk, b.bucket, b.lim, now) end
end
local info = redis.call('HMGET', mk, 'jseq', 'do')
local out = {
  st = 'ok',
  set = meta[1],
  now = s(now),
  frozen = meta[3] ~= false and meta[3] ~= '',
  extra = extra,
  sessions = redis.call('ZCARD', P .. ':sessions'),
  total = tonumber(info[1]),
  details = info[2] or '',
  entries = redis.call('LLEN', mk .. ':j'),
}
if scratch then dropData(sid) end
return cjson.encode(out)
`;

/** Stores or reads the settings of a scenario a session switched to (SettingsInput, SettingsAnswer). */
export const SETTINGS_SCRIPT = `
local q = cjson.decode(ARGV[2])
local id = enc(q.id)
if q.action == 'put' then
  redis.call('SET', P .. ':scn:' .. id, q.scenario)
  redis.call('SET', P .. ':init:' .. id, q.init)
  return cjson.encode({ status = 'ok' })
end
local text = redis.call('GET', P .. ':scn:' .. id)
return cjson.encode({ status = 'ok', text = text or nil })
`;
