import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/index.js';
import { createRequestLogger } from '../../src/cli/request-log.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { T0, burst, call } from '../support/mock.js';
import { rawRequest } from '../support/raw.js';
import { fakeTime, startWithTime } from '../support/replay.js';
import { at } from '../support/checked.js';

const httpDate = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toUTCString();

describe('Date is the session clock, in whole seconds', () => {
  it('follows the clock when it is advanced, as Retry-After and X-RateLimit-Reset do', async () => {
    const time = fakeTime(T0 + 400);
    const mock = await startWithTime(time, { keys: ['tiny:free:1:100'] });
    expect((await call(mock, '/v1/pets', { key: 'tiny' })).headers.get('date')).toBe(httpDate(T0));
    mock.clock.advance('90s');
    // A new minute on the session's clock: room again.
    expect((await call(mock, '/v1/pets', { key: 'tiny' })).status).toBe(200);
    const limited = await call(mock, '/v1/pets', { key: 'tiny' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('date')).toBe(httpDate(T0 + 90_400));
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBe(30);
    expect(Number(limited.headers.get('x-ratelimit-reset')) - Date.parse(limited.headers.get('date') ?? '') / 1000).toBe(wait);
    // The real clock moving on moves the session's clock with it.
    time.ms += 5_000;
    expect((await call(mock, '/v1/pets', { key: 'tiny' })).headers.get('date')).toBe(httpDate(T0 + 95_400));
  });

  it('a 410 of scenario removed is dated after the removal, not in the real year', async () => {
    const mock = await startWithTime(fakeTime(T0), { scenario: 'removed' });
    const gone = await call(mock, '/v1/pets/1');
    expect(gone.status).toBe(410);
    expect(gone.headers.get('date')).toBe('Wed, 01 Jan 2031 00:00:00 GMT');
  });

  it('each session dates its answers by its own clock; admin answers too, after the change they make', async () => {
    const mock = await startWithTime(fakeTime(T0));
    const worker = mock.session('w1');
    worker.clock.set('2029-06-01T08:00:00Z');
    expect((await call(mock, '/v1/pets', { headers: { 'x-mock-session': 'w1' } })).headers.get('date')).toBe('Fri, 01 Jun 2029 08:00:00 GMT');
    expect((await call(mock, '/v1/pets')).headers.get('date')).toBe(httpDate(T0));
    const advanced = await fetch(`${mock.origin}/__admin/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-session': 'w1' },
      body: JSON.stringify({ advance: '1h' }),
    });
    expect(advanced.headers.get('date')).toBe('Fri, 01 Jun 2029 09:00:00 GMT');
    expect((await fetch(`${mock.origin}/__admin/health`)).headers.get('date')).toBe(httpDate(T0));
  });

  it('answers given before the pipeline (431) carry the virtual Date too', async () => {
    const mock = await startWithTime(fakeTime(T0 + 123));
    mock.clock.set('2030-01-02T03:04:05.678Z');
    const reply = await rawRequest(mock, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    expect(reply.status).toBe(431);
    expect(reply.headers.date).toBe('Wed, 02 Jan 2030 03:04:05 GMT');
  });

  it('the Fetch handler dates its answers by the same clock', async () => {
    const handler = createFetchHandler({ now: () => T0 });
    handler.clock.set('2030-12-04T23:59:59.900Z');
    const res = await handler(new Request('http://mock.test/v1/pets/1', { headers: { authorization: 'Bearer demo-free' } }));
    expect(res.headers.get('date')).toBe('Wed, 04 Dec 2030 23:59:59 GMT');
  });
});

describe('the journal and logs keep real and virtual time where they differ', () => {
  it('an entry has realAt only when the clock was set, advanced or frozen', async () => {
    const mock = await startWithTime(fakeTime(T0 + 5));
    await burst(mock, 1);
    expect(mock.requests().at(-1)?.realAt).toBeUndefined();
    expect(mock.requests().at(-1)?.at).toBe(new Date(T0 + 5).toISOString());
    mock.clock.advance('2d');
    await burst(mock, 1);
    const entry = mock.requests().at(-1) as JournalEntry;
    expect([entry.at, entry.realAt]).toEqual([new Date(T0 + 5 + 2 * 86_400_000).toISOString(), new Date(T0 + 5).toISOString()]);
    const lines: string[] = [];
    const log = (format: 'json' | 'pretty') => createRequestLogger(format, (text) => lines.push(text), { setTimer: () => undefined });
    log('json')(entry);
    log('pretty')(entry);
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(at(lines, 0))).toMatchObject({ at: entry.at, realAt: entry.realAt });
    expect(lines[1]).toContain(`${entry.at} (real ${entry.realAt}) GET /v1/pets`);
  });
});
