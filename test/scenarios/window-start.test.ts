// The shipped window-dependent scenarios answer the same whatever the wall-clock second or day
// they are switched on: each starts its session's clock at a window's start (docs/scenarios.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

let wall = 0;
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, now: () => wall });
});
afterAll(async () => {
  await mock?.close();
});

const get = (session: string): Promise<Response> =>
  fetch(`${mock.origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-free', 'x-mock-session': session } });

const LAST_SECOND = '2026-03-10T12:00:59.900Z';
const BEFORE_MIDNIGHT = '2026-03-10T23:59:59.900Z';
const MIDNIGHT = '2026-03-11T00:00:00.000Z';

describe('window-dependent shipped scenarios switched on at any wall-clock instant', () => {
  it.each([
    { scenario: 'rate-limit-minute', at: LAST_SECOND, retryAfter: '60' },
    { scenario: 'rate-limit-minute', at: MIDNIGHT, retryAfter: '60' },
    { scenario: 'rate-limit-day', at: BEFORE_MIDNIGHT, retryAfter: '86400' },
    { scenario: 'rate-limit-day', at: MIDNIGHT, retryAfter: '86400' },
  ])('$scenario switched on at $at: the next request, 200 ms later, is 429 with Retry-After $retryAfter', async ({ scenario, at, retryAfter }) => {
    const session = `${scenario}-${at}`;
    wall = Date.parse(at);
    // The session's clock set before switching, as a suite does: the switch still starts the window afresh.
    mock.session(session).clock.set(at);
    mock.session(session).useScenario(scenario);
    wall += 200;
    const res = await get(session);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(retryAfter);
    // Until the window ends on the session's clock, and not after.
    mock.session(session).clock.advance(`${Number(retryAfter) - 1}s`);
    expect((await get(session)).status).toBe(429);
    mock.session(session).clock.advance('1s');
    expect((await get(session)).status).toBe(200);
  });

  it.each([LAST_SECOND, MIDNIGHT])('ban switched on at %s: a loop of 30 requests (50 ms apart) is banned at its 17th', async (at) => {
    const session = `ban-${at}`;
    wall = Date.parse(at);
    mock.session(session).useScenario('ban');
    const codes: string[] = [];
    for (let i = 0; i < 30; i++) {
      wall += 50;
      const res = await get(session);
      codes.push(res.status === 200 ? 'ok' : ((await res.json()) as { code: string }).code);
    }
    expect(codes.indexOf('key_banned')).toBe(16);
  });
});
