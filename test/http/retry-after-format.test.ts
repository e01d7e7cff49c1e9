// A scenario's retryAfterFormat: http-date sends Retry-After as an RFC 9110 IMF-fixdate read from
// the session clock; the journal keeps the wait in seconds and says which form was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';

const KEY = 'date-key-0001';
const T30 = Date.UTC(2026, 2, 10, 12, 0, 30);
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, keys: [`${KEY}:free:1:1000`] });
});
afterAll(() => mock?.close());

async function useScenario(session: string, scenario: Record<string, unknown>): Promise<Response> {
  return fetch(`${mock.origin}/__admin/scenario`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-mock-session': session },
    body: JSON.stringify({ scenario: { description: 'Retry-After in one form.', ...scenario } }),
  });
}

async function refused(session: string): Promise<Response> {
  mock.session(session).clock.freeze();
  mock.session(session).clock.set(T30);
  let res: Response | undefined;
  for (let i = 0; i < 2; i++) {
    res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}`, 'x-mock-session': session } });
    await res.arrayBuffer();
  }
  return res!;
}

describe('retryAfterFormat', () => {
  it.each([
    ['http-date', 'Tue, 10 Mar 2026 12:01:00 GMT', { retryAfter: 30, retryAfterForm: 'http-date' }],
    ['seconds', '30', { retryAfter: 30 }],
    [undefined, '30', { retryAfter: 30 }],
  ] as const)('%s: a 429 says Retry-After: %s', async (format, header, fields) => {
    const session = `format-${format ?? 'default'}`;
    const put = await useScenario(session, format === undefined ? {} : { retryAfterFormat: format });
    expect(put.status, await put.text()).toBe(200);
    const res = await refused(session);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(header);
    expect(res.headers.get('date')).toBe('Tue, 10 Mar 2026 12:00:30 GMT');
    const entry = mock.session(session).requests()[1]!;
    expect({ retryAfter: entry.retryAfter, retryAfterForm: entry.retryAfterForm }).toEqual({ retryAfterForm: undefined, ...fields });
  });

  it('refuses another value, naming the field', async () => {
    const put = await useScenario('format-bad', { retryAfterFormat: 'ms' });
    expect(put.status).toBe(400);
    expect(JSON.stringify(await put.json())).toContain('/retryAfterFormat');
  });
});
