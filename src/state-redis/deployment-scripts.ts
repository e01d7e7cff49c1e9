// The Lua of a deployment's life: joining (or founding) it, the heartbeat, leaving, and removing
// an ended one. Keys: `{P}:deploy` (hash: the identity fields, `show:FIELD` for messages, the world
// id; an `ending` field while it is being removed), `{P}:replicas` (hash: replica id -> the Redis
// time its heartbeat expires) and every other `{P}:…` key of the world's data.

/** Shared by the scripts: Redis's time and the replicas whose heartbeat has not expired. */
const LIVE = `
local q = cjson.decode(ARGV[2])
local dk, rk = P .. ':deploy', P .. ':replicas'
local now = realNow()
local function live()
  local all = redis.call('HGETALL', rk)
  local n = 0
  for i = 1, #all, 2 do
    if tonumber(all[i + 1]) <= now then redis.call('HDEL', rk, all[i]) else n = n + 1 end
  end
  return n
end
`;

/**
 * Whether a replica id is the first of the live ones, byte by byte: Lua's `<` follows the server's
 * locale, which could call two ids equal and make two reporters.
 */
const FIRST = `
local function before(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
local function first(id)
  local ids = redis.call('HKEYS', rk)
  for i = 1, #ids do
    if ids[i] ~= id and before(ids[i], id) then return false end
  end
  return true
end
`;

/**
 * Joins, checks (writes nothing) or beats: JoinInput in script-io.ts. Answers (JoinAnswer) ok; differs
 * with the first field that does and what the live deployment shows of it; stale (an ended world's
 * data must be removed first); lost (the world this replica joined is gone); replaced.
 */
export const JOIN_SCRIPT = `${LIVE}${FIRST}
local joined, check = q.joined, q.mode == 'check'
local function answer(status, world) return cjson.encode({ status = status, world = world or '' }) end
local world
if redis.call('EXISTS', dk) == 1 then
  if redis.call('HEXISTS', dk, 'ending') == 1 then return answer(joined == '' and 'stale' or 'lost') end
  world = redis.call('HGET', dk, 'world')
  if joined ~= '' and world ~= joined then return answer(world and 'replaced' or 'lost', world) end
  for _, f in ipairs(q.fields) do
    if redis.call('HGET', dk, f.field) ~= f.value then
      if joined == '' and live() == 0 then
        if check then return answer('ok') end
        return answer('stale')
      end
      return cjson.encode({ status = 'differs', field = f.field, shown = redis.call('HGET', dk, 'show:' .. f.field) or '' })
    end
  end
else
  if joined ~= '' then return answer('lost') end
  if check then return answer('ok') end
  world = q.fresh
  for _, f in ipairs(q.fields) do redis.call('HSET', dk, f.field, f.value, 'show:' .. f.field, f.shown) end
  redis.call('HSET', dk, 'world', world)
end
if check then return answer('ok', world) end
redis.call('SET', P .. ':init:start', q.init)
live()
redis.call('HSET', rk, q.replica, now + q.expiryMs)
redis.call('PEXPIRE', rk, q.expiryMs)
return cjson.encode({ status = 'ok', world = world, reporter = first(q.replica) })
`;

/** LeaveInput; answers (LeaveAnswer) how many replicas still keep the deployment alive. */
export const LEAVE_SCRIPT = `${LIVE}
redis.call('HDEL', rk, q.replica)
return cjson.encode({ live = live() })
`;

/**
 * One step of removing a deployment (ClearInput, ClearAnswer): the caller SCANs and declares the
 * keys found after the record's three (record, replicas, the absent key). The record goes last and
 * is marked \`ending\` first, so no replica joins a world half gone.
 */
export const CLEAR_SCRIPT = `${LIVE}
if q.mode ~= 'force' then
  local n = live()
  if n > 0 then return cjson.encode({ status = 'live', live = n }) end
end
redis.call('HSET', dk, 'ending', '1')
local deleted = 0
for i = 2, #KEYS do deleted = deleted + redis.call('DEL', KEYS[i]) end
if q.last then redis.call('DEL', dk) end
return cjson.encode({ status = 'deleted', deleted = deleted })
`;
