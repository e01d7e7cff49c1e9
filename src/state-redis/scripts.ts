// The Lua scripts that make every decision about shared state atomically inside Redis. They mirror
// the in-memory rules of src/core/state (limiter.ts, clock.ts, store.ts, journal.ts, sessions.ts)
// and of scenario-runtime.ts; the differential test (test/redis/differential.test.ts) proves the
// two give the same answers. ARGV[1] is always the key prefix `{prefix}`: the braces make it one
// hash tag, so every key of a deployment lives in one Redis Cluster slot.

/** Helpers every script shares: clock, sessions, settings, limiter buckets and the seeded generator. */
const LIBRARY = `
local P = ARGV[1]
local MINUTE, DAY, MAXI = 60000, 86400000, 8.64e15
local function s(n) return string.format('%.0f', n) end
local function realNow()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function clockNow(off, fz, real)
  if fz and fz ~= '' then return tonumber(fz) end
  return math.min(MAXI, (real or realNow()) + tonumber(off or '0'))
end
local function metaKey(sid) return P .. ':s:' .. sid end
local function dropData(sid)
  local mk = metaKey(sid)
  redis.call('DEL', mk, mk .. ':b', mk .. ':j', mk .. ':jp', mk .. ':p', mk .. ':p:available', mk .. ':p:pending', mk .. ':p:sold')
end
local function split(raw)
  local out = {}
  for v in string.gmatch(raw, '[^,]+') do out[#out + 1] = tonumber(v) end
  return out
end
-- A bucket as limiter.ts keeps it: minute and day windows and counts, the running wait (from,
-- until, refusals counted toward a ban) and the ban's end. NONE stands for "no window, no wait,
-- no ban": it lies before any instant a clock holds.
local NONE = -9e15
local function loadBucket(bk, id, now)
  local raw = redis.call('HGET', bk, id)
  local b
  if raw then
    local v = split(raw)
    b = { mw = v[1], mc = v[2], dw = v[3], dc = v[4], wf = v[5], wu = v[6], ct = v[7], bu = v[8] }
  else
    b = { mw = NONE, mc = 0, dw = NONE, dc = 0, wf = NONE, wu = NONE, ct = 0, bu = NONE }
  end
  local mw = math.floor(now / MINUTE)
  if b.mw ~= mw then b.mw = mw; b.mc = 0 end
  local dw = math.floor(now / DAY)
  if b.dw ~= dw then b.dw = dw; b.dc = 0 end
  return b
end
local function saveBucket(bk, id, b)
  redis.call('HSET', bk, id, s(b.mw) .. ',' .. s(b.mc) .. ',' .. s(b.dw) .. ',' .. s(b.dc) .. ',' .. s(b.wf) .. ',' .. s(b.wu) .. ',' .. s(b.ct) .. ',' .. s(b.bu))
end
local function clampInstant(ms) return math.max(-MAXI, math.min(MAXI, ms)) end
local function secondsUntil(instant, now) return math.max(1, math.ceil((instant - now) / 1000)) end
-- limit, remaining, reset, retryAfter (-1 for none)
local function report(b, pm, pd, refused, now)
  local ml = math.max(0, pm - b.mc)
  local dl = math.max(0, pd - b.dc)
  local useMinute = ml < dl
  local resetMs = math.min(MAXI, useMinute and (b.mw + 1) * MINUTE or (b.dw + 1) * DAY)
  local r = { useMinute and pm or pd, useMinute and ml or dl, resetMs / 1000, -1 }
  if refused then r[4] = secondsUntil(resetMs, now) end
  return r
end
local function banReport(b, pm, pd, now)
  local base = report(b, pm, pd, false, now)
  return { base[1], 0, math.ceil(b.bu / 1000), secondsUntil(b.bu, now) }
end
-- outcome ('a' allowed, 'l' limited, 'b' banned, 'p' peeked), window, report, bannedUntil, justBanned
local function peek(bk, id, pm, pd, now)
  local b = loadBucket(bk, id, now)
  saveBucket(bk, id, b)
  if b.bu > now then return { 'b', '', banReport(b, pm, pd, now), b.bu, 0 } end
  return { 'p', '', report(b, pm, pd, false, now), 0, 0 }
end
-- Bans punish sending while told to wait: the first 429 starts a wait that runs to the reset it
-- announces; a refusal counts only while that wait runs and past the grace after its start.
local function take(bk, id, pm, pd, now, enforce, banAfter, banMs, graceMs)
  if now >= MAXI then return { 'a', '', { pd, pd, MAXI / 1000, -1 }, 0, 0 } end
  local b = loadBucket(bk, id, now)
  if b.bu > now then
    saveBucket(bk, id, b)
    return { 'b', '', banReport(b, pm, pd, now), b.bu, 0 }
  end
  local minuteFull = b.mc >= pm
  local dayFull = b.dc >= pd
  if not minuteFull and not dayFull then
    b.mc = b.mc + 1; b.dc = b.dc + 1
    saveBucket(bk, id, b)
    return { 'a', '', report(b, pm, pd, false, now), 0, 0 }
  end
  local window = dayFull and 'd' or 'm'
  if not enforce then
    saveBucket(bk, id, b)
    return { 'l', window, report(b, pm, pd, false, now), 0, 0 }
  end
  local limited = report(b, pm, pd, true, now)
  if now >= b.wu or now < b.wf then
    b.wf = now
    b.ct = 0
  elseif now - b.wf >= graceMs then
    b.ct = b.ct + 1
  end
  b.wu = math.max(b.wu, limited[3] * 1000)
  if banAfter > 0 and b.ct > banAfter then
    b.bu = clampInstant(math.ceil((now + banMs) / 1000) * 1000)
    b.ct = 0
    b.wu = NONE
    saveBucket(bk, id, b)
    return { 'b', window, banReport(b, pm, pd, now), b.bu, 1 }
  end
  saveBucket(bk, id, b)
  return { 'l', window, limited, 0, 0 }
end
local function refund(bk, id, now)
  local b = loadBucket(bk, id, now)
  if b.mc > 0 then b.mc = b.mc - 1 end
  if b.dc > 0 then b.dc = b.dc - 1 end
  saveBucket(bk, id, b)
end
-- Applies settings afresh to a session (what World.apply does): returns false when Redis does not
-- hold them (after a restart), so the caller registers them again.
local function applySettings(sid, setId)
  local raw = redis.call('GET', P .. ':init:' .. setId)
  if not raw then return false end
  local init = cjson.decode(raw)
  -- Recording of details chosen for the session outlives resets and scenario switches.
  local kept = redis.call('HMGET', metaKey(sid), 'do', 'lu')
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
  redis.call('HSET', mk, 'set', setId, 'off', s(off), 'fz', fz, 'st', '0', 'tk', '0', 'cs', s(init.chaosSeed), 'ls', s(init.latencySeed), 'nid', s(init.nextId), 'jseq', '0', 'do', override, 'lu', kept[2] or s(real), 'ep', s(redis.call('INCR', P .. ':epoch')))
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

/**
 * One API request: session, clock, rate limit, scenario step and the operation's store access, in
 * one round trip. ARGV: prefix, session, expected settings id, max sessions, mode (peek | take),
 * bucket, per minute, per day, enforce (0 | 1 | G: enforce unless the removal date has passed),
 * removal instant, ban after, ban ms, step codes, step times, repeat, chaos answers, latency draws,
 * operation (list | get | create | ''), operation argument 1 and 2, ban grace ms.
 */
export const API_SCRIPT = `${LIBRARY}
local sid = ARGV[2]
local mk = touch(sid, tonumber(ARGV[4]))
if not mk then return { 'unregistered' } end
local meta = redis.call('HMGET', mk, 'set', 'off', 'fz', 'st', 'tk', 'cs', 'ls', 'nid', 'do', 'ep', 'ev')
if meta[1] ~= ARGV[3] then return { 'stale', meta[1] } end
-- Said once: this session's earlier world was dropped to make room.
local ev = meta[11] or ''
if ev ~= '' then redis.call('HDEL', mk, 'ev') end
-- Last use, for GET /__admin/sessions (API requests only, as in memory).
local real = realNow()
redis.call('HSET', mk, 'lu', s(real))
-- The journal entry's number now, in the order of decisions; the entry follows without a wait,
-- and until it lands (or 2 s pass) journal reads wait for it.
local seq = redis.call('HINCRBY', mk, 'jseq', 1)
redis.call('ZADD', mk .. ':jp', real + 2000, seq)
local ep = meta[10]
local now = clockNow(meta[2], meta[3], real)
local bk = mk .. ':b'
local pm, pd = tonumber(ARGV[7]), tonumber(ARGV[8])
if ARGV[5] == 'peek' then
  local r = peek(bk, ARGV[6], pm, pd, now)
  return { 'ok', s(now), r[1], r[2], r[3][1], r[3][2], s(r[3][3]), r[3][4], s(r[4]), r[5], -1, 0, -1, -1, false, meta[9] or '', seq, ep, ev, s(real) }
end
local enforce = ARGV[9] == '1' or (ARGV[9] == 'G' and now < tonumber(ARGV[10]))
local r = take(bk, ARGV[6], pm, pd, now, enforce, tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[21]))
local out = { 'ok', s(now), r[1], r[2], r[3][1], r[3][2], s(r[3][3]), r[3][4], s(r[4]), r[5], -1, 0, -1, -1, false, meta[9] or '', seq, ep, ev, s(real) }
local op = ARGV[18]
if r[1] == 'a' and op ~= '' then
  -- The scenario's step or chaos, for an allowed operation.
  local forced = 'n'
  local codes = ARGV[13]
  local st, tk = tonumber(meta[4]), tonumber(meta[5])
  if st < #codes and string.sub(codes, st + 1, st + 1) ~= '-' then
    local times = split(ARGV[14])
    out[11] = st
    tk = tk + 1
    out[12] = tk
    forced = string.sub(codes, st + 1, st + 1)
    if times[st + 1] > 0 and tk >= times[st + 1] then
      tk = 0
      st = st + 1
      if st == #codes and ARGV[15] == '1' then st = 0 end
    end
    redis.call('HSET', mk, 'st', s(st), 'tk', s(tk))
  elseif ARGV[16] ~= '' then
    local state, value = draw(tonumber(meta[6]))
    redis.call('HSET', mk, 'cs', s(state))
    out[13] = value
    local d = value / 4294967296
    for p, k in string.gmatch(ARGV[16], '([^:,]+):(%a)') do
      p = tonumber(p)
      if d < p then forced = k; break end
      d = d - p
    end
  end
  if forced == 'r' then refund(bk, ARGV[6], now) end
  if forced == 'n' then
    if op == 'list' and tonumber(ARGV[20]) > 0 then
      local lk = ARGV[19] == '' and mk .. ':p' or mk .. ':p:' .. ARGV[19]
      out[15] = redis.call('LRANGE', lk, 0, tonumber(ARGV[20]) - 1)
    elseif op == 'get' then
      out[15] = redis.call('LINDEX', mk .. ':p', tonumber(ARGV[19]))
    elseif op == 'create' then
      local id = tonumber(meta[8])
      local json = '{"id":' .. s(id) .. ARGV[20]
      redis.call('HSET', mk, 'nid', s(id + 1))
      redis.call('RPUSH', mk .. ':p', json)
      if ARGV[19] ~= '' then redis.call('RPUSH', mk .. ':p:' .. ARGV[19], json) end
      out[15] = s(id)
    end
  end
end
if ARGV[17] == '1' and r[1] ~= 'p' then
  local state, value = draw(tonumber(meta[7]))
  redis.call('HSET', mk, 'ls', s(state))
  out[14] = value
end
return out
`;

/**
 * Appends a journal entry (its JSON without the sequence number, which the API script gave) to a
 * session, bounded as the in-memory ring is. ARGV: prefix, session, sequence number, epoch, entry
 * tail, capacity. An entry of a session reset or dropped since its request is let go.
 */
export const JOURNAL_SCRIPT = `${LIBRARY}
local mk = metaKey(ARGV[2])
if redis.call('HGET', mk, 'ep') ~= ARGV[4] then return 0 end
redis.call('ZREM', mk .. ':jp', ARGV[3])
local cap = tonumber(ARGV[6])
if cap > 0 then
  redis.call('RPUSH', mk .. ':j', '{"seq":' .. ARGV[3] .. ',' .. ARGV[5])
  redis.call('LTRIM', mk .. ':j', -cap, -1)
end
return 1
`;

/**
 * The admin calls: ARGV prefix, session, max sessions, action, arguments. Actions: state (clock
 * and settings id), reset, apply SETTINGS, clock OPS (freeze | unfreeze | set MS | advance MS,
 * comma-separated, applied in order), journal, peek BUCKET PER_MINUTE PER_DAY... Every answer
 * starts with the settings id, the clock's now and whether it is frozen.
 */
export const ADMIN_SCRIPT = `${LIBRARY}
if redis.call('EXISTS', P .. ':deploy') == 0 then return { 'unregistered' } end
local sid = ARGV[2]
local mk = touch(sid, tonumber(ARGV[3]))
if not mk then return { 'unregistered' } end
local action = ARGV[4]
local extra = false
if action == 'journal' or action == 'jinfo' or action == 'details' then
  redis.call('ZREMRANGEBYSCORE', mk .. ':jp', '-inf', realNow())
  if redis.call('ZCARD', mk .. ':jp') > 0 then return { 'pending' } end
end
if action == 'reset' then
  if not applySettings(sid, redis.call('HGET', mk, 'set')) then return { 'missing', redis.call('HGET', mk, 'set') } end
elseif action == 'apply' then
  if not applySettings(sid, ARGV[5]) then return { 'missing', ARGV[5] } end
elseif action == 'clock' then
  for op, arg in string.gmatch(ARGV[5], '(%a+):?(-?%d*)') do
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
  redis.call('HSET', mk, 'do', ARGV[5])
elseif action == 'evictions' then
  extra = {}
  for _, id in ipairs(redis.call('ZRANGE', P .. ':evictions', 0, -1)) do
    local v = split(redis.call('HGET', P .. ':evicted', id) or '0,0')
    extra[#extra + 1] = { id, s(v[1]), s(v[2]) }
  end
elseif action == 'sessions' then
  -- Every session: id, settings id, answered requests, last use, clock; the default first.
  extra = {}
  local ids = redis.call('ZREVRANGE', P .. ':sessions', 0, -1)
  table.insert(ids, 1, 'default')
  for _, id in ipairs(ids) do
    local m = redis.call('HMGET', metaKey(id), 'set', 'jseq', 'lu', 'off', 'fz')
    if m[1] then extra[#extra + 1] = { id, m[1], m[2], m[3], s(clockNow(m[4], m[5])) } end
  end
end
local meta = redis.call('HMGET', mk, 'set', 'off', 'fz')
local now = clockNow(meta[2], meta[3])
local frozen = (meta[3] ~= false and meta[3] ~= '') and 1 or 0
if action == 'peek' then
  extra = {}
  local i = 5
  while ARGV[i] do
    local r = peek(mk .. ':b', ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), now)
    extra[#extra + 1] = { r[3][1], r[3][2], s(r[3][3]), s(r[4]), r[1] }
    i = i + 3
  end
end
local info = redis.call('HMGET', mk, 'jseq', 'do')
return { 'ok', meta[1], s(now), frozen, extra, redis.call('ZCARD', P .. ':sessions'), info[1], info[2] or '', redis.call('LLEN', mk .. ':j') }
`;

/**
 * Registers a deployment or checks an instance against it. ARGV: prefix, then field/value pairs
 * (seed, fixtures, keys, scenario, …) and finally the start settings' init JSON. Returns 'ok', or
 * the first field that differs with the value Redis holds.
 */
export const DEPLOY_SCRIPT = `
local P = ARGV[1]
local dk = P .. ':deploy'
local n = #ARGV - 1
if redis.call('EXISTS', dk) == 1 then
  for i = 2, n, 2 do
    local held = redis.call('HGET', dk, ARGV[i])
    if held ~= ARGV[i + 1] then return { 'differs', ARGV[i], held or '' } end
  end
else
  for i = 2, n, 2 do redis.call('HSET', dk, ARGV[i], ARGV[i + 1]) end
end
redis.call('SET', P .. ':init:start', ARGV[#ARGV])
return { 'ok' }
`;

/** Stores (put ID SCENARIO INIT) or reads (get ID) the settings of a scenario a session switched to. */
export const SETTINGS_SCRIPT = `
local P = ARGV[1]
if ARGV[2] == 'put' then
  redis.call('SET', P .. ':scn:' .. ARGV[3], ARGV[4])
  redis.call('SET', P .. ':init:' .. ARGV[3], ARGV[5])
  return { 'ok' }
end
return { 'ok', redis.call('GET', P .. ':scn:' .. ARGV[3]) }
`;
