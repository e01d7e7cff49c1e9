// The fixed windows and bans of core/state/limiter.ts, in Lua, for the scripts of lua-library.ts.
// A session's buckets live in its own hash, as fields `b:ID`, so the API script reads and writes
// them with the session's other fields in one HMGET and one HSET. A bucket is packed as nine
// doubles with `struct`: one C call each way, where text would need nine conversions.

/** Bucket helpers; they use `s` and the constants defined before them in the library. */
export const LIMITS_LUA = `
-- A bucket as limiter.ts keeps it: minute and day windows and counts, the running wait (from,
-- until, refusals counted toward a ban, refusals forgiven as in flight) and the ban's end. NONE
-- stands for "no window, no wait, no ban": it lies before any instant a clock holds.
local NONE = -9e15
local PACKED = '<ddddddddd'
-- Moves a bucket's windows to now.
local function rollBucket(b, now)
  local mw = math.floor(now / MINUTE)
  if b.mw ~= mw then b.mw = mw; b.mc = 0 end
  local dw = math.floor(now / DAY)
  if b.dw ~= dw then b.dw = dw; b.dc = 0 end
  return b
end
-- The bucket a session holds under bucket id \`id\` (\`raw\` as read from its field, or nil), with
-- its windows moved to now. A new one is remembered in order: past MAX_BUCKETS the oldest goes, as
-- in memory, and its id is returned second (a caller holding it must forget it).
local function bucketOf(mk, id, raw, now)
  local b, gone
  if raw then
    local mw, mc, dw, dc, wf, wu, ct, bu, fg = struct.unpack(PACKED, raw)
    b = { mw = mw, mc = mc, dw = dw, dc = dc, wf = wf, wu = wu, ct = ct, bu = bu, fg = fg }
  else
    if redis.call('RPUSH', mk .. ':bo', id) > MAX_BUCKETS then
      gone = redis.call('LPOP', mk .. ':bo')
      redis.call('HDEL', mk, 'b:' .. gone)
    end
    b = { mw = NONE, mc = 0, dw = NONE, dc = 0, wf = NONE, wu = NONE, ct = 0, bu = NONE, fg = 0 }
  end
  return rollBucket(b, now), gone
end
local function packBucket(b) return struct.pack(PACKED, b.mw, b.mc, b.dw, b.dc, b.wf, b.wu, b.ct, b.bu, b.fg) end
local function loadBucket(mk, id, now) return (bucketOf(mk, id, redis.call('HGET', mk, 'b:' .. id), now)) end
local function saveBucket(mk, id, b) redis.call('HSET', mk, 'b:' .. id, packBucket(b)) end
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
-- The decisions: outcome ('allowed', 'limited', 'banned', 'peeked'), window, report, bannedUntil,
-- justBanned, ban. Each changes the bucket in place; the caller saves it.
local function peekBucket(b, pm, pd, now)
  if b.bu > now then return { outcome = 'banned', report = banReport(b, pm, pd, now), bannedUntil = s(b.bu) } end
  return { outcome = 'peeked', report = report(b, pm, pd, false, now) }
end
local function peek(mk, id, pm, pd, now)
  local b = loadBucket(mk, id, now)
  saveBucket(mk, id, b)
  return peekBucket(b, pm, pd, now)
end
-- Bans punish sending while told to wait: the first 429 starts a wait that runs to the reset it
-- announces; its first inFlight refusals are forgiven as in flight, each later one counts.
local function takeBucket(b, pm, pd, now, enforce, rule)
  if b.bu > now then
    return { outcome = 'banned', report = banReport(b, pm, pd, now), bannedUntil = s(b.bu), ban = { counted = false, count = 0, after = rule.after, why = 'banned' } }
  end
  if b.mc < pm and b.dc < pd then
    b.mc = b.mc + 1; b.dc = b.dc + 1
    return { outcome = 'allowed', report = report(b, pm, pd, false, now) }
  end
  local window = b.dc >= pd and 'day' or 'minute'
  if not enforce then return { outcome = 'limited', window = window, report = report(b, pm, pd, false, now) } end
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
    return { outcome = 'banned', window = window, report = banReport(b, pm, pd, now), bannedUntil = s(b.bu), justBanned = true, ban = ban }
  end
  return { outcome = 'limited', window = window, report = limited, ban = ban }
end
local function refundBucket(b)
  if b.mc > 0 then b.mc = b.mc - 1 end
  if b.dc > 0 then b.dc = b.dc - 1 end
end
`;
