import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/browser/index.js';

// The browser build checks scenario objects with validators generated from the same schema: a
// usage line there fills the second and the hour as on the server, and refuses what it refuses.
const api = 'https://api.example.test/v1';
const burst = { headers: { authorization: 'Bearer burst' } };
const HOURLY = {
  name: 'hourly',
  description: 'the hour of burst already used',
  clock: { start: '2030-01-01T12:30:10Z', frozen: true },
  keys: [{ key: 'burst', plan: 'enterprise' as const, limits: ['5/s', '100/h'] }],
  usage: [{ key: 'burst', second: 2, hour: 'full' as const }],
};

describe('usage of any window in the browser build', () => {
  it('a full hour refuses with Retry-After to its end', async () => {
    const petstore = createFetchHandler({ scenarios: [HOURLY], scenario: 'hourly' });
    const res = await petstore(new Request(`${api}/pets?limit=1`, burst));
    expect([res.status, res.headers.get('x-ratelimit-limit'), res.headers.get('retry-after')]).toEqual([429, '100', '1790']);
  });

  it('refuses a window the key does not have, naming the field', () => {
    const bad = { ...HOURLY, name: 'bad', usage: [{ key: 'burst', day: 1 }] };
    expect(() => createFetchHandler({ scenarios: [bad], scenario: 'bad' })).toThrow(
      /^petstore-mock: the scenario "bad" at usage\[0\]\.day: usage fills the day of the key "burst", which has no day window \(its windows are 5\/s, 100\/h\)/,
    );
  });
});
