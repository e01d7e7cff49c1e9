// A scenario's usage line fills any window of its key: the second, the minute, the hour and the
// day, with a count or "full"; a window the key does not have is a mistake named by its place.
import { describe, expect, it } from 'vitest';
import { ScenarioSpecError, compileScenario, type ScenarioSpec } from '../../src/core/scenarios/scenario-compiler.js';
import { USAGE_WINDOWS } from '../../src/core/scenarios/scenario-limits.js';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { parseKeySpec } from '../../src/core/state/plans.js';
import { defaultSettings } from '../../src/core/state/session-settings.js';
import { BaseData } from '../../src/core/state/base-data.js';
import type { SessionSettings } from '../../src/core/state/session-state.js';
import type { CoreResponse } from '../../src/core/types.js';

const base = new BaseData([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
// Mid-second, mid-minute, mid-hour and mid-day: every window ends at a different instant.
const START = Date.UTC(2030, 0, 1, 12, 30, 10, 250);
const SECOND_END = Date.UTC(2030, 0, 1, 12, 30, 11);
const MINUTE_END = Date.UTC(2030, 0, 1, 12, 31);
const HOUR_END = Date.UTC(2030, 0, 1, 13);
const DAY_END = Date.UTC(2030, 0, 2);
/** A key with a window of each unit; `sparse` has only a second and a day, `brief` a second and a minute. */
const KEYS = ['qa:enterprise:5/s,20/m,100/h,1000/d', 'sparse:pro:4/s,50/d', 'brief:pro:2/s,30/m'];

type Usage = NonNullable<ScenarioSpec['usage']>;

function compile(usage: Usage, keys = KEYS): SessionSettings {
  const defaults = defaultSettings(base, keys.map(parseKeySpec));
  return compileScenario({ description: 'test', clock: { start: new Date(START).toISOString() }, usage }, 'test', { defaults, data: () => base });
}

function specError(usage: Usage, keys = KEYS): ScenarioSpecError {
  try {
    compile(usage, keys);
  } catch (error) {
    if (error instanceof ScenarioSpecError) return error;
    throw error;
  }
  throw new Error('compiled without an error');
}

/** An engine on a clock that runs from START; `advance` moves it on. */
function engineWith(usage: Usage): { get: (key?: string) => CoreResponse; advance: (ms: number) => void } {
  let real = 1_000_000;
  const engine = new MockEngine({ settings: compile(usage), now: () => real });
  return {
    get: (key = 'qa') =>
      engine.handle({ method: 'GET', path: '/v1/pets', query: 'limit=1', headers: { authorization: `Bearer ${key}` }, remoteAddress: '127.0.0.1' }),
    advance: (ms) => {
      real += ms;
    },
  };
}

const rateHeaders = (r: CoreResponse) => ({
  status: r.status,
  limit: r.headers['X-RateLimit-Limit'],
  remaining: r.headers['X-RateLimit-Remaining'],
  reset: r.headers['X-RateLimit-Reset'],
  retryAfter: r.headers['Retry-After'],
});

describe('a usage line fills any window of its key', () => {
  it('names the windows second, minute, hour and day', () => {
    expect(USAGE_WINDOWS).toEqual(['second', 'minute', 'hour', 'day']);
  });

  it.each([
    ['second', 'full', [5, 0, 0, 0]],
    ['second', 3, [3, 0, 0, 0]],
    ['minute', 'full', [0, 20, 0, 0]],
    ['hour', 'full', [0, 0, 100, 0]],
    ['hour', 42, [0, 0, 42, 0]],
    ['day', 'full', [0, 0, 0, 1000]],
  ] as const)('%s: %s presets that window of the key, the others start empty', (name, used, counts) => {
    const s = compile([{ key: 'qa', [name]: used }]);
    expect(s.usage).toEqual([
      {
        key: 'qa',
        counts: [1_000, 60_000, 3_600_000, 86_400_000].map((lengthMs, i) => ({ lengthMs, count: counts[i] })),
        bannedForMs: undefined,
      },
    ]);
  });

  it('fills several windows in one line', () => {
    const s = compile([{ key: 'qa', second: 1, minute: 2, hour: 'full', day: 4 }]);
    expect(s.usage[0]?.counts.map((c) => c.count)).toEqual([1, 2, 100, 4]);
  });

  it('"*" fills the window in every key that has it and leaves the others as they are', () => {
    const s = compile([{ key: '*', hour: 'full' }]);
    const byKey = new Map(s.usage.map((u) => [u.key, u.counts]));
    expect(byKey.get('qa')?.map((c) => c.count)).toEqual([0, 0, 100, 0]);
    expect(byKey.get('sparse')).toEqual([
      { lengthMs: 1_000, count: 0 },
      { lengthMs: 86_400_000, count: 0 },
    ]);
    expect(byKey.get('demo-free')).toEqual([
      { lengthMs: 60_000, count: 0 },
      { lengthMs: 86_400_000, count: 0 },
    ]);
  });

  it.each<[string, Usage, (string | number)[], RegExp]>([
    [
      'an hour the key does not have',
      [{ key: 'sparse', hour: 'full' }],
      ['usage', 0, 'hour'],
      /^usage fills the hour of the key "sparse", which has no hour window \(its windows are 4\/s, 50\/d\); fill one of those, or give the key an hour window in its limits, such as "100\/h"$/,
    ],
    [
      'a minute the key does not have',
      [{ key: 'qa' }, { key: 'sparse', day: 1, minute: 3 }],
      ['usage', 1, 'minute'],
      /key "sparse", which has no minute window/,
    ],
    [
      'a second the key does not have',
      [{ key: 'demo-free', second: 1 }],
      ['usage', 0, 'second'],
      /key "demo-free", which has no second window \(its windows are 60\/m, 1000\/d\)/,
    ],
    [
      'a day the key does not have',
      [
        { key: 'qa', day: 1 },
        { key: 'brief', second: 'full', day: 'full' },
      ],
      ['usage', 1, 'day'],
      /key "brief", which has no day window/,
    ],
    ['a key the server does not have', [{ key: 'nobody', hour: 1 }], ['usage', 0, 'key'], /key "nobody", which this server does not have/],
  ])('refuses %s, naming where', (_name, usage, path, message) => {
    const error = specError(usage);
    expect(error.path).toEqual(path);
    expect(error.message).toMatch(message);
  });

  it('refuses "*" filling a window no key has', () => {
    // Only the demo keys: a minute and a day each.
    const error = specError(
      [
        { key: '*', minute: 1 },
        { key: '*', hour: 1 },
      ],
      [],
    );
    expect(error.path).toEqual(['usage', 1, 'hour']);
    expect(error.message).toBe('usage fills the hour of every key, but no key has an hour window; give a plan or a key one in its limits, such as "100/h"');
  });
});

describe('the preset windows answer as used ones', () => {
  it.each([
    // window, preset, the X-RateLimit-Limit of that window, its end
    ['second', 5, SECOND_END],
    ['minute', 20, MINUTE_END],
    ['hour', 100, HOUR_END],
    ['day', 1000, DAY_END],
  ] as const)('%s: "full" refuses at once with Retry-After to its end; the end lets requests through again', (name, limit, end) => {
    const mock = engineWith([{ key: 'qa', [name]: 'full' }]);
    expect(rateHeaders(mock.get())).toEqual({
      status: 429,
      limit: String(limit),
      remaining: '0',
      reset: String(end / 1000),
      retryAfter: String(Math.ceil((end - START) / 1000)),
    });
    // Another key is untouched.
    expect(mock.get('demo-pro').status).toBe(200);
    mock.advance(end - START - 1);
    expect(mock.get().status).toBe(429);
    mock.advance(1);
    expect(mock.get().status).toBe(200);
  });

  it.each([
    ['second', 3, 5, SECOND_END],
    ['minute', 18, 20, MINUTE_END],
    ['hour', 98, 100, HOUR_END],
    ['day', 998, 1000, DAY_END],
  ] as const)('%s: a count leaves the rest of the window, reported as the window with the fewest left', (name, used, limit, end) => {
    const mock = engineWith([{ key: 'qa', [name]: used }]);
    const answers = [mock.get(), mock.get(), mock.get()].map(rateHeaders);
    const reset = String(end / 1000);
    expect(answers).toEqual([
      { status: 200, limit: String(limit), remaining: '1', reset, retryAfter: undefined },
      { status: 200, limit: String(limit), remaining: '0', reset, retryAfter: undefined },
      { status: 429, limit: String(limit), remaining: '0', reset, retryAfter: String(Math.ceil((end - START) / 1000)) },
    ]);
  });
});
