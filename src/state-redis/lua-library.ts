import { LIMITS_LUA } from './lua-limits.js';

// The state transitions that must run atomically inside Redis, in Lua, each the twin of a
// TypeScript rule the memory home runs: the fixed windows and bans (core/state/limiter.ts), the
// clock (clock.ts), applying settings (session-state.ts), sessions (sessions.ts), the store's bounds
// (store.ts) and the journal's bounds (journal.ts). ARGV[1] is always the key prefix `{prefix}`.

/** Helpers every script shares, for the function library (connection.ts), which sets P and ARGV on each call. */
export const LIBRARY_BODY = `
local MINUTE, DAY, MAXI = 60000, 86400000, 8.64e15
local MAX_BUCKETS = 100000
-- A session hash's fields the API script reads (its buckets besides), made once here rather than on every call.
local SESSION_FIELDS = { 'set', 'off', 'fz', 'st', 'tk', 'cs', 'ls', 'nid', 'do', 'ep', 'ev', 'pc', 'cb', 'jseq', 'jb', 'jq', 'rm' }
-- A number as its digits: '%d' where it is whole (several times cheaper than '%.0f'). Standard
-- libraries are read when called: a function library cannot reach them as it loads.
local function s(n)
  if n % 1 == 0 and n > -9e18 and n < 9e18 then return string.format('%d', n) end
  return string.format('%.0f', n)
end
-- Real time in milliseconds and microseconds (for last use: milliseconds tie too often), from one TIME.
local function realBoth()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function realNow() return (realBoth()) end
local function clockNow(off, fz, real)
  if fz and fz ~= '' then return tonumber(fz) end
  return math.min(MAXI, (real or realNow()) + tonumber(off or '0'))
end
-- A user-given text as one part of a key name, as keyPart in keys.ts encodes it.
local function encByte(c) return string.format('%%%02X', string.byte(c)) end
local function enc(text)
  if not string.find(text, '[^%w%._%-]') then return text end
  return (string.gsub(text, '[^%w%._%-]', encByte))
end
local function metaKey(sid) return P .. ':s:' .. enc(sid) end
-- Whether the call declared a key: one a script needs and lacks is named in its answer, and the
-- caller calls again declaring it.
local function isDeclared(key)
  if not DECL then
    DECL = {}
    for _, k in ipairs(KEYS) do DECL[k] = true end
  end
  return DECL[key] == true
end
local function dropData(sid)
  local mk = metaKey(sid)
  redis.call('DEL', mk, mk .. ':bo', mk .. ':j', mk .. ':p', mk .. ':p:available', mk .. ':p:pending', mk .. ':p:sold')
end
-- Journal entries answered but not yet written, counted by when they are given up in slots of
-- 250 ms, in the session hash's field jq, "SLOT:COUNT,…": written with the session's one HSET,
-- where a sorted set of the entries' numbers cost three commands' work per decision.
local function pendingSlot(real) return math.floor((real + 2000) / 250) end
local function pendingOf(text)
  local t = {}
  if text then for g, n in string.gmatch(text, '(%d+):(%d+)') do t[tonumber(g)] = tonumber(n) end end
  return t
end
-- The slots still waited for at real, as the field keeps them ('' when none is).
local function pendingText(t, real)
  local parts, past = {}, math.floor(real / 250)
  for g, n in pairs(t) do if g > past and n > 0 then parts[#parts + 1] = s(g) .. ':' .. s(n) end end
  return table.concat(parts, ',')
end
${LIMITS_LUA}
-- Applies settings afresh to a session (SessionState.apply): false when Redis does not hold them
-- (after a restart), so the caller registers them again.
local function applySettings(sid, setId)
  local raw = redis.call('GET', P .. ':init:' .. enc(setId))
  if not raw then return false end
  local init = cjson.decode(raw)
  -- Recording of details, last use and the untold news of an eviction outlive resets and switches.
  local kept = redis.call('HMGET', metaKey(sid), 'do', 'lu', 'ev')
  local override = kept[1] or ''
  dropData(sid)
  local real = realNow()
  local off, fz = 0, ''
  if init.start ~= nil then
    if init.frozen then fz = s(init.start) else off = init.start - real end
  elseif init.frozen then
    fz = s(real)
  end
  local mk = metaKey(sid)
  redis.call('HSET', mk, 'set', setId, 'off', s(off), 'fz', fz, 'st', '0', 'tk', '0', 'cs', s(init.chaosSeed), 'ls', s(init.latencySeed), 'nid', s(init.nextId), 'pc', '0', 'cb', '0', 'jseq', '0', 'jb', '0', 'do', override, 'lu', kept[2] or s(select(2, realBoth())), 'ep', s(redis.call('INCR', P .. ':epoch')))
  if kept[3] then redis.call('HSET', mk, 'ev', kept[3]) end
  local now = clockNow(s(off), fz)
  for _, u in ipairs(init.usage) do
    local id = 'key:' .. u.key
    local b = loadBucket(mk, id, now)
    for i, w in ipairs(u.counts) do b[slotOf(b, w.lengthMs, i, now) + 2] = w.count end
    if u.bannedForMs ~= nil then b.bu = clampInstant(math.ceil((now + u.bannedForMs) / 1000) * 1000) end
    saveBucket(mk, id, b)
  end
  return true
end
-- Creates a session as SessionRegistry.resolve does: past the limit the least recently used other
-- one (never the default) is dropped. False when the start settings are missing.
local function createSession(sid, maxSessions)
  local mk = metaKey(sid)
  if sid ~= 'default' and redis.call('ZSCORE', P .. ':sessions', sid) == false then
    if redis.call('ZCARD', P .. ':sessions') >= maxSessions then
      -- The session to drop must have been declared: if not, say which, and change nothing.
      local oldest = redis.call('ZRANGE', P .. ':sessions', 0, 0)[1]
      if oldest and not isDeclared(metaKey(oldest)) then return false, oldest end
      local old = redis.call('ZPOPMIN', P .. ':sessions')
      if old[1] then
        -- Remembered for GET /__admin/evictions (the latest 1,000) and the id's next request.
        local entries = redis.call('LLEN', metaKey(old[1]) .. ':j')
        redis.call('ZADD', P .. ':evictions', redis.call('INCR', P .. ':lru'), old[1])
        redis.call('HSET', P .. ':evicted', old[1], s(realNow()) .. ',' .. entries)
        if redis.call('ZCARD', P .. ':evictions') > 1000 then
          local gone = redis.call('ZPOPMIN', P .. ':evictions')
          redis.call('HDEL', P .. ':evicted', gone[1])
        end
        dropData(old[1])
      end
    end
  end
  if not applySettings(sid, 'start') then return false end
  local evicted = redis.call('HGET', P .. ':evicted', sid)
  if evicted then redis.call('HSET', mk, 'ev', string.match(evicted, '^[^,]+')) end
  return true
end
-- Finds or creates a session and uses it: its key, or false (and the session to drop for room,
-- when the call did not declare its keys).
local function touch(sid, maxSessions)
  local mk = metaKey(sid)
  if redis.call('EXISTS', mk) == 0 then
    local made, victim = createSession(sid, maxSessions)
    if not made then return false, victim end
  end
  if sid ~= 'default' then redis.call('ZADD', P .. ':sessions', redis.call('INCR', P .. ':lru'), sid) end
  return mk
end
-- Appends journal entries ("BYTES JSON", so the oldest can go with its size) bounded by count and
-- bytes as in memory, in one RPUSH and one LPOP: what stays is the newest run within the bounds,
-- as appending them one at a time would leave it. An entry of a session reset since is let go.
local function appendRun(mk, texts, added, cap, maxBytes, bytes)
  if cap <= 0 or #texts == 0 then return bytes end
  local n = redis.call('RPUSH', mk .. ':j', unpack(texts))
  bytes = bytes + added
  if n > cap then
    for _, t in ipairs(redis.call('LPOP', mk .. ':j', n - cap)) do bytes = bytes - tonumber(string.match(t, '^%d+')) end
    n = cap
  end
  while n > 0 and bytes > maxBytes do
    bytes = bytes - tonumber(string.match(redis.call('LPOP', mk .. ':j'), '^%d+'))
    n = n - 1
  end
  return bytes
end
-- A run (journal-runs.ts), its texts ARGV[at…]; a landed entry is no longer waited for (jq). A
-- session the caller holds in \`cached\` (its fields f, written w, pending q) is changed there.
local function appendRunOf(r, at, cached, real)
  local mk = metaKey(r.sid)
  local c = cached and cached[r.sid]
  local ep, bytes, pend
  if c then
    ep, bytes, pend = c.f.ep, tonumber(c.f.jb or '0'), c.q
  else
    local m = redis.call('HMGET', mk, 'ep', 'jb', 'jq')
    ep, bytes, pend = m[1], tonumber(m[2] or '0'), pendingOf(m[3])
  end
  local n = #r.at
  if r.ep == ep then
    local texts, added = {}, 0
    for i = 1, n do
      texts[i] = ARGV[at + i - 1]
      added = added + r.b[i]
      local g = pendingSlot(r.at[i])
      local left = pend[g]
      if left then pend[g] = left - 1 end
    end
    local after = appendRun(mk, texts, added, r.cap, r.max, bytes)
    if c then
      if after ~= bytes then c.f.jb = s(after); c.w.jb = true end
    else
      redis.call('HSET', mk, 'jb', s(after), 'jq', pendingText(pend, real))
    end
  end
end
-- A session whose journal cannot be written loses those entries alone (its decisions say why).
local function appendJournal(runs, first, cached, real)
  local at = first
  for _, r in ipairs(runs) do
    pcall(appendRunOf, r, at, cached, real)
    at = at + #r.at
  end
end
-- mulberry32, as seededRandom in scenario-runtime.ts: advances the state, returns it and the draw.
local function u32(x) if x < 0 then return x + 4294967296 end return x end
local function imul(a, b)
  local ah, al = math.floor(a / 65536), a % 65536
  local bh, bl = math.floor(b / 65536), b % 65536
  return (al * bl + ((ah * bl + al * bh) % 65536) * 65536) % 4294967296
end
local function draw(state)
  state = (state + 1831565813) % 4294967296
  local t = state
  t = imul(u32(bit.bxor(t, bit.rshift(t, 15))), u32(bit.bor(t, 1)))
  t = u32(bit.bxor(t, (t + imul(u32(bit.bxor(t, bit.rshift(t, 7))), u32(bit.bor(t, 61)))) % 4294967296))
  return state, u32(bit.bxor(t, bit.rshift(t, 14)))
end
`;

/** Helpers every script shares, at the head of an EVAL script. */
export const LIBRARY = `
local P, DECL = ARGV[1], nil${LIBRARY_BODY}`;
