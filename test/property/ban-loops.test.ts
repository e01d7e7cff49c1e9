// Bans a person can trigger and a well-behaved client never does, on the shipped scenarios: a loop
// that ignores its 429s is banned wherever in the minute it starts; callers that wait Retry-After
// (with up to 20% jitter) are never counted toward a ban; a client retrying every 250 ms is banned.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import type { CoreResponse } from '../../src/core/types.js';
import { prepareDefaults } from '../../src/files/defaults-data.js';
import { ScenarioCatalogue } from '../../src/files/scenario-catalogue.js';
import { T0 } from '../support/mock.js';

const catalogue = new ScenarioCatalogue(prepareDefaults({}));
const SHIPPED = catalogue.list().map((s) => s.name);

function engineOn(scenario: string, at: number): MockEngine {
  const engine = new MockEngine({ settings: catalogue.settings(scenario) });
  const clock = engine.sessions.defaultSession.clock;
  clock.freeze();
  clock.set(at);
  return engine;
}

const list = (engine: MockEngine): CoreResponse =>
  engine.handle({ method: 'GET', path: '/v1/pets', query: 'limit=1', headers: { authorization: 'Bearer demo-free' } });
const code = (res: CoreResponse): string | undefined => (res.status === 429 ? (JSON.parse(res.body ?? '{}') as { code: string }).code : undefined);

describe('bans in the shipped scenarios', () => {
  it('ban: a loop of 30 requests with no clock advance between them is banned, whatever second of the minute it starts', () => {
    for (let second = 0; second < 60; second++) {
      for (const ms of [0, 999]) {
        const engine = engineOn('ban', T0 + second * 1000 + ms);
        const codes = Array.from({ length: 30 }, () => code(list(engine)));
        expect({ second, ms, banned: codes.includes('key_banned') }).toEqual({ second, ms, banned: true });
      }
    }
  });

  it('a client retrying every 250 ms regardless of Retry-After is banned (ban scenario and the defaults)', () => {
    for (const scenario of ['ban', 'default']) {
      const engine = engineOn(scenario, T0 + 12_345);
      const clock = engine.sessions.defaultSession.clock;
      let banned = false;
      for (let i = 0; i < 400 && !banned; i++) {
        banned = code(list(engine)) === 'key_banned';
        clock.advance(250);
      }
      expect({ scenario, banned }).toEqual({ scenario, banned: true });
    }
  });

  it('8 callers that each wait Retry-After plus up to 20% jitter are never counted toward a ban, in any shipped scenario', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHIPPED), fc.integer({ min: 0, max: 59_999 }), fc.integer(), (scenario, start, seed) => {
        const engine = engineOn(scenario, T0 + start);
        const clock = engine.sessions.defaultSession.clock;
        // A seeded generator for the jitter and the round trips, so a failure replays.
        let state = seed >>> 0;
        const random = (): number => {
          state = (state * 1664525 + 1013904223) >>> 0;
          return state / 2 ** 32;
        };
        const callers = Array.from({ length: 8 }, () => ({ next: T0 + start + Math.floor(random() * 1000) }));
        for (let n = 0; n < 600; n++) {
          const caller = callers.reduce((a, b) => (b.next < a.next ? b : a));
          if (caller.next > T0 + start + 5 * 60_000) break;
          clock.set(caller.next);
          const res = list(engine);
          const lag = Math.floor(random() * 300);
          const retryAfter = res.headers['Retry-After'];
          caller.next += retryAfter === undefined ? lag : Math.ceil(Number(retryAfter) * 1000 * (1 + 0.2 * random())) + lag;
        }
        const journal = engine.sessions.defaultSession.journal.list();
        // Where limits are small the callers are refused often: the rule is exercised, not avoided.
        if (scenario === 'ban') expect(journal.filter((e) => e.code === 'rate_limited').length).toBeGreaterThan(8);
        const counted = journal.filter((e) => e.ban?.counted === true);
        expect({ scenario, counted }).toEqual({ scenario, counted: [] });
      }),
      { numRuns: 150 },
    );
  });
});
