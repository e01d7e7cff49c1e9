import { LIBRARY } from './lua-library.js';

/**
 * "Decide this request", the one script an API request waits for: it appends the journal entries
 * of earlier answers, then takes the session, its clock, the rate limit, the scenario's step or
 * chaos draw, the latency draw and the operation's store access. ARGV[2] is one JSON object of
 * named fields (`DecideInput` in core/state/state-port.ts, with the session and the journal
 * entries' bounds); the entries' texts follow as ARGV[3…], unescaped. The answer is one JSON object.
 */
export const API_SCRIPT = `${LIBRARY}
local q = cjson.decode(ARGV[2])
appendJournal(q.journal, 3)
local sid = q.sid
local mk = touch(sid, q.max)
if not mk then return cjson.encode({ st = 'unregistered' }) end
local meta = redis.call('HMGET', mk, 'set', 'off', 'fz', 'st', 'tk', 'cs', 'ls', 'nid', 'do', 'ep', 'ev', 'pc', 'cb', 'jseq')
if meta[1] ~= q.set then return cjson.encode({ st = 'stale', set = meta[1] }) end
-- Said once: this session's earlier world was dropped to make room.
local ev = meta[11] or ''
if ev ~= '' then redis.call('HDEL', mk, 'ev') end
-- Last use, for GET /__admin/sessions (API requests only, as in memory), and the journal entry's
-- number now, in the order of decisions; the entry follows with a later call, and until it
-- lands (or 2 s pass) journal reads wait for it.
local real, micros = realBoth()
local seq = tonumber(meta[14] or '0') + 1
redis.call('HSET', mk, 'lu', s(micros), 'jseq', s(seq))
redis.call('ZADD', mk .. ':jp', real + 2000, seq)
local now = clockNow(meta[2], meta[3], real)
local out = { st = 'ok', now = s(now), real = s(real), details = meta[9] or '', seq = seq, ep = meta[10], evicted = ev }
local bk = mk .. ':b'
if q.mode == 'peek' then
  out.decision = peek(bk, q.bucket, q.pm, q.pd, now)
  return cjson.encode(out)
end
local enforce = q.enforce == 'yes' or (q.enforce == 'removal' and now < q.removalAt)
local d = take(bk, q.bucket, q.pm, q.pd, now, enforce, q.rule)
out.decision = d
if enforce and d.outcome == 'allowed' and q.op ~= '' then
  -- The scenario's step or chaos, for an allowed operation.
  local forced = 'n'
  local st, tk = tonumber(meta[4]), tonumber(meta[5])
  if st < #q.steps and string.sub(q.steps, st + 1, st + 1) ~= '-' then
    out.step = st
    tk = tk + 1
    out.nth = tk
    forced = string.sub(q.steps, st + 1, st + 1)
    if q.times[st + 1] > 0 and tk >= q.times[st + 1] then
      tk = 0
      st = st + 1
      if st == #q.steps and q.rep then st = 0 end
    end
    redis.call('HSET', mk, 'st', s(st), 'tk', s(tk))
  elseif #q.chaos > 0 then
    local state, value = draw(tonumber(meta[6]))
    redis.call('HSET', mk, 'cs', s(state))
    out.chaos = value
    local x = value / 4294967296
    for _, a in ipairs(q.chaos) do
      if x < a.p then forced = a.c; break end
      x = x - a.p
    end
  end
  if forced == 'r' then refund(bk, q.bucket, now) end
  if forced == 'n' then
    if q.op == 'list' and q.count > 0 then
      local lk = q.status == '' and mk .. ':p' or mk .. ':p:' .. q.status
      out.data = redis.call('LRANGE', lk, 0, q.count - 1)
    elseif q.op == 'get' then
      out.data = redis.call('LINDEX', mk .. ':p', q.index)
    elseif q.op == 'create' then
      -- The store's bounds, in the order store.ts checks them: an id a JSON client reads exactly, then room.
      local id = tonumber(meta[8])
      if id > 9007199254740991 then
        out.full = 'id'
      elseif tonumber(meta[12] or '0') >= q.maxCreated or tonumber(meta[13] or '0') + q.bytes > q.maxBytes then
        out.full = 'room'
      else
        local json = '{"id":' .. s(id) .. q.tail
        redis.call('HSET', mk, 'nid', s(id + 1), 'pc', s(tonumber(meta[12] or '0') + 1), 'cb', s(tonumber(meta[13] or '0') + q.bytes))
        redis.call('RPUSH', mk .. ':p', json)
        if q.status ~= '' then redis.call('RPUSH', mk .. ':p:' .. q.status, json) end
        out.data = s(id)
      end
    end
  end
end
if q.lat and d.outcome ~= 'peeked' then
  local state, value = draw(tonumber(meta[7]))
  redis.call('HSET', mk, 'ls', s(state))
  out.latency = value
end
return cjson.encode(out)
`;
