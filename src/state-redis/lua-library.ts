// The state transitions that must run atomically inside Redis, in Lua, each the twin of a
// TypeScript rule the memory home runs: the fixed windows and bans (core/state/limiter.ts), the
// clock (clock.ts), applying settings (world.ts), sessions (sessions.ts), the store's bounds
// (store.ts) and the journal's bounds (journal.ts). Scripts take one JSON object of named fields
// and answer one; test/redis/differential.test.ts holds both homes to the same answers.
// ARGV[1] is always the key prefix `{prefix}`: the braces make it one hash tag, so every key of a
// deployment lives in one Redis Cluster slot.

/** Helpers every script shares. */
export const LIBRARY = `
local P = ARGV[1]
local MINUTE, DAY, MAXI = 60000, 86400000, 8.64e15
local MAX_BUCKETS = 100000
local function s(n) return string.format('%.0f', n) end
local function realNow()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- Real time in milliseconds and microseconds (last use: sessions are listed by it, and
-- milliseconds tie too often), from one TIME.
local function realBoth()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function clockNow(off, fz, real)
  if fz and fz ~= '' then return tonumber(fz) end
  return math.min(MAXI, (real or realNow()) + tonumber(off or '0'))
end
local function metaKey(sid) return P .. ':s:' .. sid end
local function dropData(sid)
  local mk = metaKey(sid)
  redis.call('DEL', mk, mk .. ':b', mk .. ':bo', mk .. ':j', mk .. ':jp', mk .. ':p', mk .. ':p:available', mk .. ':p:pending', mk .. ':p:sold')
end
local function split(raw)
  local out = {}
  for v in string.gmatch(raw, '[^,]+') do out[#out + 1] = tonumber(v) end
  return out
end
-- A bucket as limiter.ts keeps it: minute and day windows and counts, the running wait (from,
-- until, refusals counted toward a ban, refusals forgiven as in flight) and the ban's end. NONE
-- stands for "no window, no wait, no ban": it lies before any instant a clock holds.
local NONE = -9e15
local function loadBucket(bk, id, now)
  local raw = redis.call('HGET', bk, id)
  local b
  if raw then
    local v = split(raw)
    b = { mw = v[1], mc = v[2], dw = v[3], dc = v[4], wf = v[5], wu = v[6], ct = v[7], bu = v[8], fg = v[9] or 0 }
  else
    -- A new bucket; past MAX_BUCKETS the oldest one goes, as in memory.
    if redis.call('RPUSH', bk .. 'o', id) > MAX_BUCKETS then redis.call('HDEL', bk, redis.call('LPOP', bk .. 'o')) end
    b = { mw = NONE, mc = 0, dw = NONE, dc = 0, wf = NONE, wu = NONE, ct = 0, bu = NONE, fg = 0 }
  end
  local mw = math.floor(now / MINUTE)
  if b.mw ~= mw then b.mw = mw; b.mc = 0 end
  local dw = math.floor(now / DAY)
  if b.dw ~= dw then b.dw = dw; b.dc = 0 end
  return b
end
local function saveBucket(bk, id, b)
  redis.call('HSET', bk, id, s(b.mw) .. ',' .. s(b.mc) .. ',' .. s(b.dw) .. ',' .. s(b.dc) .. ',' .. s(b.wf) .. ',' .. s(b.wu) .. ',' .. s(b.ct) .. ',' .. s(b.bu) .. ',' .. s(b.fg))
end
local function clampInstant(ms) return math.max(-MAXI, math.min(MAXI, ms)) end
local function secondsUntil(instant, now) return math.max(1, math.ceil((instant - now) / 1000)) end
local function report(b, pm, pd, refused, now)
  local ml = math.max(0, pm - b.mc)
  local dl = math.max(0, pd - b.dc)
  local useMinute = ml < dl
  local resetMs = math.min(MAXI, useMinute and (b.mw + 1) * MINUTE or (b.dw + 1) * DAY)
  local r = { limit = useMinute and pm or pd, remaining = useMinute and ml or dl, reset = s(resetMs / 1000) }
  if refused then r.retryAfter = secondsUntil(resetMs, now) end
  return r
end
local function banReport(b, pm, pd, now)
  local base = report(b, pm, pd, false, now)
  return { limit = base.limit, remaining = 0, reset = s(math.ceil(b.bu / 1000)), retryAfter = secondsUntil(b.bu, now) }
end
-- The decision: outcome ('allowed', 'limited', 'banned', 'peeked'), window, report, bannedUntil, justBanned, ban.
local function peek(bk, id, pm, pd, now)
  local b = loadBucket(bk, id, now)
  saveBucket(bk, id, b)
  if b.bu > now then return { outcome = 'banned', report = banReport(b, pm, pd, now), bannedUntil = s(b.bu) } end
  return { outcome = 'peeked', report = report(b, pm, pd, false, now) }
end
-- Bans punish sending while told to wait: the first 429 starts a wait that runs to the reset it
-- announces; its first inFlight refusals are forgiven as in flight, each later one counts.
local function take(bk, id, pm, pd, now, enforce, rule)
  if now >= MAXI then return { outcome = 'allowed', report = { limit = pd, remaining = pd, reset = s(MAXI / 1000) } } end
  local b = loadBucket(bk, id, now)
  if b.bu > now then
    saveBucket(bk, id, b)
    return { outcome = 'banned', report = banReport(b, pm, pd, now), bannedUntil = s(b.bu), ban = { counted = false, count = 0, after = rule.after, why = 'banned' } }
  end
  if b.mc < pm and b.dc < pd then
    b.mc = b.mc + 1; b.dc = b.dc + 1
    saveBucket(bk, id, b)
    return { outcome = 'allowed', report = report(b, pm, pd, false, now) }
  end
  local window = b.dc >= pd and 'day' or 'minute'
  if not enforce then
    saveBucket(bk, id, b)
    return { outcome = 'limited', window = window, report = report(b, pm, pd, false, now) }
  end
  local limited = report(b, pm, pd, true, now)
  if now >= b.wu or now < b.wf then
    b.wf = now; b.ct = 0; b.fg = 0
  end
  b.wu = math.max(b.wu, tonumber(limited.reset) * 1000)
  local counted = b.fg >= rule.inFlight
  if counted then b.ct = b.ct + 1 else b.fg = b.fg + 1 end
  local ban = { counted = counted, count = b.ct, after = rule.after, why = counted and '' or 'inflight' }
  if rule.after <= 0 then ban.counted = false; ban.why = 'off' end
  if rule.after > 0 and b.ct > rule.after then
    b.bu = clampInstant(math.ceil((now + rule.ms) / 1000) * 1000)
    b.ct = 0; b.fg = 0; b.wu = NONE
    saveBucket(bk, id, b)
    return { outcome = 'banned', window = window, report = banReport(b, pm, pd, now), bannedUntil = s(b.bu), justBanned = true, ban = ban }
  end
  saveBucket(bk, id, b)
  return { outcome = 'limited', window = window, report = limited, ban = ban }
end
local function refund(bk, id, now)
  local b = loadBucket(bk, id, now)
  if b.mc > 0 then b.mc = b.mc - 1 end
  if b.dc > 0 then b.dc = b.dc - 1 end
  saveBucket(bk, id, b)
end
-- Applies settings afresh to a session (what SessionState.apply does): returns false when Redis does not
-- hold them (after a restart), so the caller registers them again.
local function applySettings(sid, setId)
  local raw = redis.call('GET', P .. ':init:' .. setId)
  if not raw then return false end
  local init = cjson.decode(raw)
  -- Recording of details chosen for the session outlives resets and scenario switches, as do its
  -- last use and the news, not yet told, that an earlier session of its id was evicted.
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
    local b = loadBucket(mk .. ':b', id, now)
    if u.minute ~= nil then b.mc = u.minute end
    if u.day ~= nil then b.dc = u.day end
    if u.bannedForMs ~= nil then b.bu = clampInstant(math.ceil((now + u.bannedForMs) / 1000) * 1000) end
    saveBucket(mk .. ':b', id, b)
  end
  return true
end
-- Finds or creates a session as SessionRegistry.resolve does: the default one is never evicted;
-- past the limit the least recently used other one is dropped.
local function touch(sid, maxSessions)
  local mk = metaKey(sid)
  if redis.call('EXISTS', mk) == 0 then
    if sid ~= 'default' and redis.call('ZSCORE', P .. ':sessions', sid) == false then
      if redis.call('ZCARD', P .. ':sessions') >= maxSessions then
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
  end
  if sid ~= 'default' then redis.call('ZADD', P .. ':sessions', redis.call('INCR', P .. ':lru'), sid) end
  return mk
end
-- Appends journal entries (the pipeline built them, cut and sized as in memory) to their sessions,
-- bounded by count and bytes as the in-memory journal is: each is kept as "BYTES JSON", so the
-- oldest can go with its size. An entry of a session reset or dropped since its request is let
-- go. entries holds each entry's session, number, epoch and bounds; its text is ARGV[first + i - 1].
local function appendJournal(entries, first)
  for i, e in ipairs(entries) do
    local mk = metaKey(e.sid)
    if redis.call('HGET', mk, 'ep') == e.ep then
      redis.call('ZREM', mk .. ':jp', e.seq)
      if e.cap > 0 then
        local n = redis.call('RPUSH', mk .. ':j', e.bytes .. ' ' .. ARGV[first + i - 1])
        local bytes = redis.call('HINCRBY', mk, 'jb', e.bytes)
        while n > 0 and (n > e.cap or bytes > e.maxBytes) do
          local gone = redis.call('LPOP', mk .. ':j')
          bytes = redis.call('HINCRBY', mk, 'jb', -tonumber(string.match(gone, '^%d+')))
          n = n - 1
        end
      end
    end
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
