import { HOME_STEPS, type HomeStep } from '../core/check-order.js';
import { OPERATIONS_LUA } from './operations/index.js';

/**
 * The home's steps in Lua, each the twin of its case in memory-port.ts, for the API script's
 * `decide` (api-script.ts). They run in one Lua scope, in HOME_STEPS' order: each reads what the
 * earlier ones set (`removed`, `enforce`, `d`, `goesOn`, `forced`) and what `decide` set before them (`q`,
 * `c`, `mk`, `sid`, `now`, `out`, `op`, `bucket`). A step added to HOME_STEPS fails to compile here until it is written.
 */
const STEP_LUA: Record<HomeStep, string> = {
  removal: `
  local removed = q.removal and now >= (q.removalAt or 0)
  if removed then out.removed = true end
  local enforce = q.enforce == 'yes' and not removed`,
  limit: `
  local d
  if now >= MAXI then
    -- At the end of time the windows cannot roll: the longest is reported whole.
    local longest = q.lim[#q.lim] or 0
    d = { outcome = 'allowed', report = { limit = longest, remaining = longest, reset = s(MAXI / 1000) } }
  else
    d = takeBucket(bucket(), q.lim, now, enforce, q.rule or { after = 0, ms = 0, inFlight = 0 })
  end
  out.decision = d
  local goesOn = enforce and d.outcome == 'allowed'`,
  // A declared operation has no steps and no chaos (redis-plan.ts sends none): nothing forces its answer.
  scenario: `
  local forced = 'n'
  if goesOn and op ~= '' then
    local steps, chaos = q.steps or '', q.chaos or {}
    local st, tk = tonumber(c.f.st), tonumber(c.f.tk)
    if st < #steps and string.sub(steps, st + 1, st + 1) ~= '-' then
      out.step = st
      tk = tk + 1
      out.nth = tk
      forced = string.sub(steps, st + 1, st + 1)
      local times = (q.times or {})[st + 1] or 0
      if times > 0 and tk >= times then
        tk = 0
        st = st + 1
        if st == #steps and q.rep then st = 0 end
      end
      put(c, 'st', s(st)); put(c, 'tk', s(tk))
    elseif #chaos > 0 then
      local state, value = draw(tonumber(c.f.cs))
      put(c, 'cs', s(state))
      out.chaos = value
      local x = value / 4294967296
      for _, a in ipairs(chaos) do
        if x < a.p then forced = a.c; break end
        x = x - a.p
      end
    end
  end`,
  refund: `
  if forced == 'r' then refundBucket(bucket()) end`,
  operation: `
  if goesOn and forced == 'n' and op ~= '' then
    ${OPERATIONS_LUA}
    if op == 'decl' then
      -- A declared operation's next answer: one counter per operation in the session's hash, gone with it on a reset.
      local name = 'd:' .. q.dop
      local n = tonumber(c.f[name] or redis.call('HGET', mk, name) or '0')
      put(c, name, s(n + 1))
      out.dcall = n
    end
  end`,
  latency: `
  if q.lat then
    local state, value = draw(tonumber(c.f.ls))
    put(c, 'ls', s(state))
    out.latency = value
  end`,
};

/** The steps of a counted request's decision, in their one order. */
export const HOME_STEPS_LUA = HOME_STEPS.map((step) => `  -- step: ${step}${STEP_LUA[step]}`).join('\n');
