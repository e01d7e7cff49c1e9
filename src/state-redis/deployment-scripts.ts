// The Lua of a deployment's life: joining (or founding) it, the heartbeat, leaving, and removing
// an ended one. Keys: `{P}:deploy` (hash: the identity fields, `show:FIELD` for messages, the world
// id; an `ending` field while it is being removed), `{P}:replicas` (hash: replica id -> the Redis
// time its heartbeat expires) and every other `{P}:…` key of the world's data.

/** Shared by the scripts: Redis's time and the replicas whose heartbeat has not expired. */
const LIVE = `
local P = ARGV[1]
local dk, rk = P .. ':deploy', P .. ':replicas'
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
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
    if ids[i] ~= id and before(ids[i], id) then return 0 end
  end
  return 1
end
`;

/**
 * ARGV: prefix, replica id, heartbeat expiry ms, world joined before ('' on a first start), a
 * fresh world id, the start settings' init, mode (check: no write | join), then triples of field,
 * value and what a message shows of it. Returns ok WORLD REPORTER (REPORTER: 1 when this replica's
id is the first of the live ones, so it alone shows the deployment's gauges; 0 otherwise); differs FIELD SHOWN (a live deployment
 * has another value); stale (an ended world's data must be removed first); lost (the world this
 * replica joined is gone from Redis); replaced WORLD (another world was founded since).
 */
export const JOIN_SCRIPT = `${LIVE}${FIRST}
local joined, check = ARGV[4], ARGV[7] == 'check'
local world
if redis.call('EXISTS', dk) == 1 then
  if redis.call('HEXISTS', dk, 'ending') == 1 then return { joined == '' and 'stale' or 'lost' } end
  world = redis.call('HGET', dk, 'world')
  if joined ~= '' and world ~= joined then return { world and 'replaced' or 'lost', world or '' } end
  for i = 8, #ARGV, 3 do
    if redis.call('HGET', dk, ARGV[i]) ~= ARGV[i + 1] then
      if joined == '' and live() == 0 then
        if check then return { 'ok', '' } end
        return { 'stale' }
      end
      return { 'differs', ARGV[i], redis.call('HGET', dk, 'show:' .. ARGV[i]) or '' }
    end
  end
else
  if joined ~= '' then return { 'lost' } end
  if check then return { 'ok', '' } end
  world = ARGV[5]
  for i = 8, #ARGV, 3 do redis.call('HSET', dk, ARGV[i], ARGV[i + 1], 'show:' .. ARGV[i], ARGV[i + 2]) end
  redis.call('HSET', dk, 'world', world)
end
if check then return { 'ok', world } end
redis.call('SET', P .. ':init:start', ARGV[6])
live()
redis.call('HSET', rk, ARGV[2], now + tonumber(ARGV[3]))
redis.call('PEXPIRE', rk, tonumber(ARGV[3]))
return { 'ok', world, first(ARGV[2]) }
`;

/** ARGV: prefix, replica id. Returns how many replicas still keep the deployment alive. */
export const LEAVE_SCRIPT = `${LIVE}
redis.call('HDEL', rk, ARGV[2])
return { live() }
`;

/**
 * Removes a deployment in steps (so Redis is never blocked long): the caller SCANs and declares
 * the keys found after the record's three (record, replicas, the absent key). ARGV: prefix, mode
 * (stale: only while no replica is alive | force), last (the SCAN ended: the record goes too).
 * Returns live N (refused) or DELETED. The record goes last and is marked \`ending\` first, so no
 * replica joins a world half gone.
 */
export const CLEAR_SCRIPT = `${LIVE}
if ARGV[2] ~= 'force' then
  local n = live()
  if n > 0 then return { 'live', n } end
end
redis.call('HSET', dk, 'ending', '1')
local deleted = 0
for i = 2, #KEYS do deleted = deleted + redis.call('DEL', KEYS[i]) end
if ARGV[3] == 'last' then redis.call('DEL', dk) end
return { deleted }
`;
