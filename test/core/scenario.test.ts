import { describe, expect, it } from 'vitest';
import { ScenarioSpecError, compileScenario, type ScenarioSpec } from '../../src/core/scenarios/scenario-compiler.js';
import { ScriptedRuntime, seededRandom } from '../../src/core/scenarios/scenario-runtime.js';
import { parseKeySpec } from '../../src/core/state/plans.js';
import { defaultSettings } from '../../src/core/state/session-settings.js';
import { BaseData } from '../../src/core/state/base-data.js';
import type { SessionSettings } from '../../src/core/state/session-state.js';
import type { CoreRequest } from '../../src/core/types.js';
import { DAY_MS, MINUTE_MS, minuteDay, parseWindows } from '../../src/core/state/windows.js';

const base = new BaseData([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
const empty = new BaseData([]);

function compile(spec: Omit<ScenarioSpec, 'description'>, extraKeys: string[] = []): SessionSettings {
  const defaults = defaultSettings(base, extraKeys.map(parseKeySpec));
  return compileScenario({ description: 'test', ...spec }, 'test', { defaults, data: () => empty });
}

function specError(spec: Omit<ScenarioSpec, 'description'>): ScenarioSpecError {
  try {
    compile(spec);
  } catch (error) {
    if (error instanceof ScenarioSpecError) return error;
    throw error;
  }
  throw new Error('compiled without an error');
}

const limitsOf = (s: SessionSettings, key: string) => s.keys.find((k) => k.key === key)?.limits;

describe('compileScenario', () => {
  it('keeps the command line settings when the scenario says nothing', () => {
    const s = compile({});
    const d = defaultSettings(base);
    // The definition is the scenario as given, kept for GET /__admin/scenario and snapshots.
    expect({ ...s, runtime: undefined }).toEqual({ ...d, scenario: 'test', runtime: undefined, definition: { description: 'test' } });
    expect(s.runtime).toBeUndefined();
  });

  it('applies plan limits to the keys of the plan and to clients without a key, but not to keys with their own limits', () => {
    const s = compile({ plans: { free: { perMinute: 5 }, pro: { perDay: 7 } } }, ['own:free:9:99', 'plain:free']);
    expect(limitsOf(s, 'demo-free')).toEqual(minuteDay(5, 1000));
    expect(limitsOf(s, 'plain')).toEqual(minuteDay(5, 1000));
    expect(limitsOf(s, 'demo-pro')).toEqual(minuteDay(300, 7));
    expect(limitsOf(s, 'own')).toEqual(minuteDay(9, 99));
    expect(s.anonymousLimits).toEqual(minuteDay(5, 1000));
  });

  it('gives a plan or a key every window it lists; perMinute and perDay change only those windows', () => {
    const s = compile({
      plans: { pro: { limits: ['500/h', '10/s'] } },
      keys: [
        { key: 'qa', plan: 'free', limits: ['1/s', '30/m', '900/d'] },
        { key: 'mix', plan: 'pro', perMinute: 7 },
      ],
      usage: [{ key: 'qa', minute: 'full' }],
    });
    expect(limitsOf(s, 'demo-pro')).toEqual(parseWindows(['10/s', '500/h']));
    expect(limitsOf(s, 'qa')).toEqual(parseWindows(['1/s', '30/m', '900/d']));
    expect(limitsOf(s, 'mix')).toEqual(parseWindows(['10/s', '7/m', '500/h']));
    expect(s.usage).toEqual([
      {
        key: 'qa',
        counts: [
          { lengthMs: 1000, count: 0 },
          { lengthMs: MINUTE_MS, count: 30 },
          { lengthMs: DAY_MS, count: 0 },
        ],
        bannedForMs: undefined,
      },
    ]);
  });

  it('adds keys, changes known ones and revokes', () => {
    const s = compile({
      keys: [
        { key: 'qa', plan: 'pro', perMinute: 3 },
        { key: 'demo-free', revoked: true },
        { key: 'demo-pro', plan: 'business' },
      ],
    });
    expect(s.keys.find((k) => k.key === 'qa')).toEqual({ key: 'qa', plan: 'pro', limits: minuteDay(3, 10_000), custom: true });
    expect(s.keys.find((k) => k.key === 'demo-free')).toEqual({ key: 'demo-free', plan: 'free', limits: minuteDay(60, 1000), revoked: true });
    expect(s.keys.find((k) => k.key === 'demo-pro')?.limits).toEqual(minuteDay(1000, 100_000));
  });

  it('a key with limits of its own keeps them when changed, unless it is moved to another plan', () => {
    const kept = compile({ keys: [{ key: 'own', revoked: true }] }, ['own:free:9:99']);
    expect(kept.keys.find((k) => k.key === 'own')).toEqual({ key: 'own', plan: 'free', limits: minuteDay(9, 99), custom: true, revoked: true });
    const moved = compile({ plans: { pro: { perMinute: 7 } }, keys: [{ key: 'own', plan: 'pro' }] }, ['own:free:9:99']);
    expect(moved.keys.find((k) => k.key === 'own')).toEqual({ key: 'own', plan: 'pro', limits: minuteDay(7, 10_000) });
  });

  it('expands usage: "*" is every key and "full" is the key\'s own limit', () => {
    const s = compile({
      plans: { free: { perMinute: 5 } },
      usage: [
        { key: '*', minute: 'full' },
        { key: 'demo-pro', day: 12, bannedFor: '90s' },
      ],
    });
    expect(s.usage).toEqual([
      {
        key: 'demo-free',
        counts: [
          { lengthMs: MINUTE_MS, count: 5 },
          { lengthMs: DAY_MS, count: 0 },
        ],
        bannedForMs: undefined,
      },
      {
        key: 'demo-pro',
        counts: [
          { lengthMs: MINUTE_MS, count: 300 },
          { lengthMs: DAY_MS, count: 0 },
        ],
        bannedForMs: undefined,
      },
      {
        key: 'demo-business',
        counts: [
          { lengthMs: MINUTE_MS, count: 1000 },
          { lengthMs: DAY_MS, count: 0 },
        ],
        bannedForMs: undefined,
      },
      {
        key: 'demo-enterprise',
        counts: [
          { lengthMs: MINUTE_MS, count: 5000 },
          { lengthMs: DAY_MS, count: 0 },
        ],
        bannedForMs: undefined,
      },
      {
        key: 'demo-pro',
        counts: [
          { lengthMs: MINUTE_MS, count: 0 },
          { lengthMs: DAY_MS, count: 12 },
        ],
        bannedForMs: 90_000,
      },
    ]);
  });

  it('reads ban, clock, deprecation and journal', () => {
    const s = compile({
      ban: { after: 2, duration: '1m30s' },
      clock: { start: '2030-12-04T23:59:00Z', frozen: true },
      deprecation: { deprecatedAt: '2026-01-01T00:00:00Z', removalAt: '2027-01-01T00:00:00+01:00' },
      journal: { size: 7 },
    });
    expect(s.ban).toEqual({ after: 2, durationMs: 90_000 });
    expect(s.clock).toEqual({ start: Date.UTC(2030, 11, 4, 23, 59), frozen: true });
    expect(s.deprecation).toEqual({ deprecatedAt: Date.UTC(2026, 0, 1), removalAt: Date.UTC(2026, 11, 31, 23) });
    expect(s.journalSize).toBe(7);
  });

  it('asks the server for the data a data section names', () => {
    const defaults = defaultSettings(base);
    const s = compileScenario({ description: 'd', data: { empty: true } }, 'd', { defaults, data: (spec) => (spec.empty ? empty : base) });
    expect(s.base).toBe(empty);
  });

  it.each<[string, Omit<ScenarioSpec, 'description'>, (string | number)[], RegExp]>([
    ['a usage line for an unknown key', { usage: [{ key: 'nobody', minute: 1 }] }, ['usage', 0, 'key'], /key "nobody", which this server does not have/],
    ['a new key without a plan', { keys: [{ key: 'fresh' }] }, ['keys', 0], /"fresh" is new here and needs a plan/],
    [
      'a status the operation never answers',
      { steps: [{ match: { operation: 'listPets' }, answer: { status: 404 } }] },
      ['steps', 0, 'answer', 'status'],
      /listPets never answers 404/,
    ],
    [
      'a status one of the matched operations never answers',
      { steps: [{ match: { path: '/v1/pets' }, answer: { status: 415 } }] },
      ['steps', 0, 'answer', 'status'],
      /listPets never answers 415/,
    ],
    [
      'a code of another status',
      { steps: [{ answer: { status: 503, code: 'rate_limited' } }] },
      ['steps', 0, 'answer', 'code'],
      /"rate_limited" is not one of the catalogue's codes for 503: service_unavailable/,
    ],
    ['an unknown code', { steps: [{ answer: { status: 500, code: 'boom' } }] }, ['steps', 0, 'answer', 'code'], /"boom"/],
    [
      'a code of the admin API',
      { steps: [{ answer: { status: 401, code: 'admin_unauthorized' } }] },
      ['steps', 0, 'answer', 'code'],
      /"admin_unauthorized" is not one of the catalogue's codes for 401: missing_api_key, malformed_authorization, invalid_api_key, revoked_api_key$/,
    ],
    [
      "a code of the mock's sessions",
      { steps: [{ answer: { status: 400, code: 'invalid_session' } }] },
      ['steps', 0, 'answer', 'code'],
      /"invalid_session" is not one/,
    ],
    ['a match that fits no operation', { steps: [{ match: { method: 'POST', path: '/v1/pets/*' }, answer: 'normal' }] }, ['steps', 0], /fits no operation/],
    [
      'chaos probabilities above 1',
      {
        chaos: {
          seed: 1,
          answers: [
            { probability: 0.7, answer: 'normal' },
            { probability: 0.4, answer: 'normal' },
          ],
        },
      },
      ['chaos', 'answers'],
      /add up to more than 1/,
    ],
    ['latency min above max', { latency: { min: '2s', max: '1s' } }, ['latency', 'min'], /min is larger than max/],
  ])('refuses %s, naming where', (_name, spec, path, message) => {
    const error = specError(spec);
    expect(error.path).toEqual(path);
    expect(error.message).toMatch(message);
  });
});

/** A runtime compiled from a spec, through the same path the server uses. */
/** A request as the runtime sees it. */
function req(method: string, path: string, headers: CoreRequest['headers'] = {}): CoreRequest {
  return { method, path, query: '', headers };
}

function runtimeOf(spec: Omit<ScenarioSpec, 'description'>): ScriptedRuntime {
  const make = compile(spec).runtime;
  if (!make) throw new Error('no runtime');
  return make() as ScriptedRuntime;
}

describe('ScriptedRuntime', () => {
  it('takes matching requests step by step, lets others through, then answers normally', () => {
    const rt = runtimeOf({
      steps: [
        { match: { operation: 'createPet' }, times: 2, answer: 'normal' },
        { match: { operation: 'createPet' }, answer: { status: 503, retryAfter: 5 } },
      ],
    });
    const create = () => rt.intercept('createPet', req('POST', '/v1/pets'), undefined);
    expect(create()).toBeUndefined();
    expect(rt.intercept('listPets', req('GET', '/v1/pets'), undefined)).toBeUndefined();
    expect(create()).toBeUndefined();
    expect(create()).toEqual({ status: 503, code: 'service_unavailable', retryAfter: 5, reason: 'scenario test, step 2: forced 503' });
    expect([create(), create()]).toEqual([undefined, undefined]);
  });

  it('repeats the steps when asked, and names the nth request of a step', () => {
    const rt = runtimeOf({ repeat: true, steps: [{ times: 2, answer: { status: 500 } }, { answer: 'normal' }] });
    const seen = Array.from({ length: 6 }, () => rt.intercept('listPets', req('GET', '/v1/pets'), undefined)?.reason ?? 'normal');
    expect(seen).toEqual([
      'scenario test, step 1 (1 of 2): forced 500',
      'scenario test, step 1 (2 of 2): forced 500',
      'normal',
      'scenario test, step 1 (1 of 2): forced 500',
      'scenario test, step 1 (2 of 2): forced 500',
      'normal',
    ]);
  });

  it('matches paths with * for one segment, and GET steps take HEAD requests', () => {
    const rt = runtimeOf({ repeat: true, steps: [{ match: { method: 'GET', path: '/v1/pets/*' }, answer: { fault: 'reset' } }] });
    expect(rt.intercept('getPet', req('HEAD', '/v1/pets/12'), undefined)?.fault).toBe('reset');
    expect(rt.intercept('listPets', req('GET', '/v1/pets'), undefined)).toBeUndefined();
  });

  it('forces a 429 with a Retry-After of 1 when the file gives none', () => {
    const rt = runtimeOf({ steps: [{ answer: { status: 429 } }] });
    expect(rt.intercept('listPets', req('GET', '/v1/pets'), undefined)).toEqual(expect.objectContaining({ status: 429, code: 'rate_limited', retryAfter: 1 }));
  });

  it('plays the same chaos pattern for the same seed, another for another seed', () => {
    const pattern = (seed: number) => {
      const rt = runtimeOf({
        chaos: {
          seed,
          answers: [
            { probability: 0.3, answer: { status: 503 } },
            { probability: 0.1, answer: { fault: 'empty' } },
          ],
        },
      });
      return Array.from({ length: 40 }, () => {
        const forced = rt.intercept('listPets', req('GET', '/v1/pets'), undefined);
        return forced?.fault ?? forced?.status ?? 200;
      });
    };
    const first = pattern(3);
    expect(pattern(3)).toEqual(first);
    expect(pattern(4)).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 503, 'empty']));
  });

  it('draws latency within the range, the same for the same seed', () => {
    const draws = (seed: number) => {
      const rt = runtimeOf({ latency: { min: '100ms', max: '1s', seed } });
      return Array.from({ length: 200 }, () => rt.latency());
    };
    const first = draws(7);
    expect(draws(7)).toEqual(first);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...first)).toBeLessThanOrEqual(1000);
    expect(new Set(first).size).toBeGreaterThan(100);
    expect(runtimeOf({ latency: '250ms' }).latency()).toBe(250);
  });

  it('has a seeded generator that is uniform enough and repeatable', () => {
    const a = seededRandom(1);
    const b = seededRandom(1);
    const values = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(values);
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    expect(mean).toBeGreaterThan(0.47);
    expect(mean).toBeLessThan(0.53);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  });
});
