// Numbers and units a scenario or --key gives that reach a timer or a header are bounded and
// parsed strictly: past the bound, or with a unit that is no window, they are refused at their place.
import { describe, expect, it } from 'vitest';
import { MAX_LATENCY_MS, MAX_RETRY_AFTER_S, ScenarioSpecError, compileScenario, type ScenarioSpec } from '../../src/core/scenarios/scenario-compiler.js';
import { KeySpecError, parseKeySpec } from '../../src/core/state/plans.js';
import { defaultSettings } from '../../src/core/state/session-settings.js';
import { BaseData } from '../../src/core/state/base-data.js';

const base = new BaseData([]);

function compile(spec: Omit<ScenarioSpec, 'description'>) {
  return compileScenario({ description: 'bounds', ...spec } as ScenarioSpec, 'bounds', { defaults: defaultSettings(base), data: () => base });
}

function placeOf(spec: Omit<ScenarioSpec, 'description'>): readonly (string | number)[] {
  try {
    compile(spec);
  } catch (error) {
    if (error instanceof ScenarioSpecError) return error.path;
    throw error;
  }
  throw new Error('compiled without an error');
}

const forced = (retryAfter: number): Omit<ScenarioSpec, 'description'> =>
  ({ steps: [{ match: { operation: 'listPets' }, answer: { status: 429, retryAfter } }] }) as Omit<ScenarioSpec, 'description'>;

describe('window units', () => {
  it.each(['k:pro:5/constructor', 'k:pro:5/toString', 'k:pro:5/__proto__', 'k:pro:5/hasOwnProperty', 'k:pro:5/valueOf,10/m'])('--key %s is refused', (spec) => {
    expect(() => parseKeySpec(spec)).toThrow(KeySpecError);
    expect(() => parseKeySpec(spec)).toThrow(/the units are s, m, h and d|is not a window/);
  });

  it.each(['5/constructor', '5/__proto__', '5/toString'])('a scenario key with the window %s is refused at its limits', (window) => {
    expect(placeOf({ keys: [{ key: 'k', plan: 'pro', limits: [window] }] } as Omit<ScenarioSpec, 'description'>)).toEqual(['keys', 0, 'limits']);
  });

  it('still takes s, m, h and d', () => {
    expect(parseKeySpec('k:pro:1/s,2/m,3/h,4/d').limits.map((w) => w.lengthMs)).toEqual([1_000, 60_000, 3_600_000, 86_400_000]);
  });
});

describe('latency', () => {
  it.each([
    ['30d', '30d', ['latency']],
    ['61s', '61s', ['latency']],
    ['60,001 ms', MAX_LATENCY_MS + 1, ['latency']],
    ['a max of 2m', { min: '1s', max: '2m' }, ['latency', 'max']],
    ['a min of 1h', { min: '1h', max: '2h' }, ['latency', 'min']],
  ])('%s is refused at its place', (_what, latency, place) => {
    expect(placeOf({ latency } as Omit<ScenarioSpec, 'description'>)).toEqual(place);
  });

  it('takes up to its maximum', () => {
    expect(compile({ latency: '60s' }).runtimeSpec?.latency).toEqual({ minMs: MAX_LATENCY_MS, maxMs: MAX_LATENCY_MS, seed: 0 });
  });
});

describe('retryAfter', () => {
  it.each([1e21, MAX_RETRY_AFTER_S + 1])('%s is refused at its place', (retryAfter) => {
    expect(placeOf(forced(retryAfter))).toEqual(['steps', 0, 'answer', 'retryAfter']);
  });

  it('takes up to a day', () => {
    expect(compile(forced(MAX_RETRY_AFTER_S)).runtimeSpec?.steps[0]?.answer).toMatchObject({ retryAfter: MAX_RETRY_AFTER_S });
  });
});
