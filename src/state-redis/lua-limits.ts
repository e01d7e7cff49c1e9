// The fixed windows and bans of core/state/limiter.ts, in Lua, for the scripts of lua-library.ts
// (they use `s` and the constants defined before them). A bucket lives in its session's hash
// (field `b:ID`), packed as doubles with `struct`: two C calls each way (the head, then the
// windows), where text would need a conversion per number.

export const LIMITS_LUA = `
-- A bucket as limiter.ts keeps it: its n windows (length, number, count of each in b[1..3n]), the running wait
-- (from, until, refusals counted toward a ban, refusals forgiven as in flight) and the ban's end.
-- NONE stands for "no wait, no ban": it lies before any instant a clock holds. Limits come as
-- one flat list, length and most of each window, shortest first: { 60000, 60, 86400000, 1000 }.
local NONE = -9e15
local HEAD = '<dddddd'
local TAILS = {}
local function tailOf(n)
  local t = TAILS[n]
  if not t then t = '<' .. string.rep('d', 3 * n); TAILS[n] = t end
  return t
end
-- Where the window of length len starts in b (b[k] its length, b[k + 1] its number, b[k + 2] its
-- count), made (empty, at now) when missing; hint is the slot it usually has.
local function slotOf(b, len, hint, now)
  local k = 3 * hint - 2
  if hint <= b.n and b[k] == len then return k end
  for j = 1, 3 * b.n, 3 do if b[j] == len then return j end end
  k = 3 * b.n + 1
  b[k] = len; b[k + 1] = math.floor(now / len); b[k + 2] = 0
  b.n = b.n + 1
  return k
end
local function rollBucket(b, now)
  for k = 1, 3 * b.n, 3 do
    local w = math.floor(now / b[k])
    if b[k + 1] ~= w then b[k + 1] = w; b[k + 2] = 0 end
  end
  return b
end
-- A bucket as packed, its windows as they were left: one table, the windows' numbers in its array part.
local function unpackBucket(raw)
  local wf, wu, ct, bu, fg, n, at = struct.unpack(HEAD, raw)
  local b = { n = n, wf = wf, wu = wu, ct = ct, bu = bu, fg = fg }
  if n > 0 then
    local v = { struct.unpack(tailOf(n), raw, at) }
    for k = 1, 3 * n do b[k] = v[k] end
  end
  return b
end
-- The bucket \`id\` (\`raw\` as read from its field, or nil), moved to now; a new one gets a window for
-- each of lim and is remembered in order: past MAX_BUCKETS the oldest goes, as in memory, and its
-- id is returned second (a caller holding it must forget it).
local function bucketOf(mk, id, raw, now, lim)
  local b, gone
  if raw then return rollBucket(unpackBucket(raw), now), gone end
  if redis.call('RPUSH', mk .. ':bo', id) > MAX_BUCKETS then
    gone = redis.call('LPOP', mk .. ':bo')
    redis.call('HDEL', mk, 'b:' .. gone)
  end
  b = { n = 0, wf = NONE, wu = NONE, ct = 0, bu = NONE, fg = 0 }
  if lim then for i = 1, #lim / 2 do slotOf(b, lim[2 * i - 1], i, now) end end
  return b, gone
end
local function packBucket(b)
  local n = b.n
  return struct.pack(HEAD, b.wf, b.wu, b.ct, b.bu, b.fg, n) .. (n > 0 and struct.pack(tailOf(n), unpack(b, 1, 3 * n)) or '')
end
local function loadBucket(mk, id, now, lim) return (bucketOf(mk, id, redis.call('HGET', mk, 'b:' .. id), now, lim)) end
local function saveBucket(mk, id, b) redis.call('HSET', mk, 'b:' .. id, packBucket(b)) end
local function clampInstant(ms) return math.max(-MAXI, math.min(MAXI, ms)) end
local function secondsUntil(instant, now) return math.max(1, math.ceil((instant - now) / 1000)) end
-- Where each window of lim starts in b, in SLOT (one table, reused): the usual place is checked
-- here, slotOf called only when a window is elsewhere or missing. Returns the number of windows.
local SLOT = {}
local function slotsOf(b, lim, now)
  local n = #lim / 2
  for i = 1, n do
    local k, len = 3 * i - 2, lim[2 * i - 1]
    if i > b.n or b[k] ~= len then k = slotOf(b, len, i, now) end
    SLOT[i] = k
  end
  return n
end
-- A standard library's field is a global read on every use, dearer in a function than the
-- arithmetic it saves: infinity is a constant here, and the clamps are comparisons.
local HUGE = 1 / 0
-- The window with the fewest requests left, on a tie the one that resets later (the later in lim
-- on the same reset), from the n windows slotsOf placed in SLOT.
local function reportAt(b, lim, n, refused, now)
  local limit, left, resetMs = 0, HUGE, -HUGE
  for i = 1, n do
    local len, max, k = lim[2 * i - 1], lim[2 * i], SLOT[i]
    local wl = max - b[k + 2]
    if wl < 0 then wl = 0 end
    local wr = (b[k + 1] + 1) * len
    if wl < left or (wl == left and wr >= resetMs) then limit, left, resetMs = max, wl, wr end
  end
  if resetMs > MAXI then resetMs = MAXI end
  local r = { limit = limit, remaining = left, reset = s(math.ceil(resetMs / 1000)) }
  if refused then r.retryAfter = secondsUntil(resetMs, now) end
  return r
end
local function report(b, lim, refused, now) return reportAt(b, lim, slotsOf(b, lim, now), refused, now) end
-- The length of the full window that resets last.
local function refusingLength(b, lim, now)
  local length, latest = 0, -math.huge
  for i = 1, #lim / 2 do
    local len, max = lim[2 * i - 1], lim[2 * i]
    local k = slotOf(b, len, i, now)
    local wr = (b[k + 1] + 1) * len
    if b[k + 2] >= max and wr >= latest then length, latest = len, wr end
  end
  return length
end
local WINDOW_NAMES = { [1000] = 'second', [60000] = 'minute', [3600000] = 'hour', [86400000] = 'day' }
local function windowName(len) return WINDOW_NAMES[len] or (s(len) .. 'ms') end
local function banReport(b, lim, now)
  local base = report(b, lim, false, now)
  return { limit = base.limit, remaining = 0, reset = s(math.ceil(b.bu / 1000)), retryAfter = secondsUntil(b.bu, now) }
end
-- The decisions: outcome ('allowed', 'limited', 'banned', 'peeked'), window, report, bannedUntil,
-- justBanned, ban. Each changes the bucket in place; the caller saves it.
local function peekBucket(b, lim, now)
  if b.bu > now then return { outcome = 'banned', report = banReport(b, lim, now), bannedUntil = s(b.bu) } end
  return { outcome = 'peeked', report = report(b, lim, false, now) }
end
local function peek(mk, id, lim, now)
  local b = loadBucket(mk, id, now, lim)
  saveBucket(mk, id, b)
  return peekBucket(b, lim, now)
end
-- Bans punish sending while told to wait: the first 429 starts a wait that runs to the reset it
-- announces; its first inFlight refusals are forgiven as in flight, each later one counts.
local function takeBucket(b, lim, now, enforce, rule)
  if b.bu > now then
    return { outcome = 'banned', report = banReport(b, lim, now), bannedUntil = s(b.bu), ban = { counted = false, count = 0, after = rule.after, why = 'banned' } }
  end
  local n, fits = slotsOf(b, lim, now), true
  for i = 1, n do
    if b[SLOT[i] + 2] >= lim[2 * i] then fits = false end
  end
  if fits then
    for i = 1, n do
      local k = SLOT[i] + 2
      b[k] = b[k] + 1
    end
    return { outcome = 'allowed', report = reportAt(b, lim, n, false, now) }
  end
  local window = windowName(refusingLength(b, lim, now))
  if not enforce then return { outcome = 'limited', window = window, report = report(b, lim, false, now) } end
  local limited = report(b, lim, true, now)
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
    return { outcome = 'banned', window = window, report = banReport(b, lim, now), bannedUntil = s(b.bu), justBanned = true, ban = ban }
  end
  return { outcome = 'limited', window = window, report = limited, ban = ban }
end
local function refundBucket(b)
  for k = 3, 3 * b.n, 3 do if b[k] > 0 then b[k] = b[k] - 1 end end
end
-- A bucket's numbers as one list, for snapshots: the head, then each window's.
local function bucketNumbers(b)
  local v = { b.wf, b.wu, b.ct, b.bu, b.fg }
  for k = 1, 3 * b.n do v[k + 5] = b[k] end
  return v
end
local function numbersBucket(v)
  local b = { n = (#v - 5) / 3, wf = v[1], wu = v[2], ct = v[3], bu = v[4], fg = v[5] }
  for k = 1, 3 * b.n do b[k] = v[k + 5] end
  return b
end
`;
