import { describe, expect, it } from 'vitest';
import { createRequestLogger, type LogFormat } from '../src/log.js';
import { createFetchHandler, type JournalEntry } from '../src/index.js';
import { T0 } from './support/mock.js';
import { writeScenario } from './support/replay.js';

/** Logs through `createRequestLogger` and returns the text it wrote, after its batching turn. */
async function logged(format: LogFormat, drive: (onRequest: (e: JournalEntry) => void) => Promise<void>): Promise<string> {
  let text = '';
  const logger = createRequestLogger(format, (t) => (text += t));
  await drive(logger);
  await new Promise((resolve) => setImmediate(resolve));
  return text;
}

/** Three requests: a success, a normal error, and an answer a scenario forced. */
async function traffic(onRequest: (e: JournalEntry) => void): Promise<void> {
  const petstore = createFetchHandler({ onRequest, keys: ['log-test-key-0001:pro'] });
  petstore.clock.freeze();
  petstore.clock.set(T0);
  const session = petstore.engine.sessions.resolve('w1').clock;
  session.freeze();
  session.set(T0);
  const auth = { headers: { authorization: 'Bearer log-test-key-0001', 'x-mock-session': 'w1' } };
  await petstore(new Request('http://mock.test/v1/pets?limit=1', auth));
  await petstore(new Request('http://mock.test/v1/pets/0', { headers: { authorization: 'Bearer log-test-key-0001' } }));
  petstore.useScenario(writeScenario('outage.yaml', ['description: the store is down once', 'clock: { start: "2026-03-10T12:00:00Z", frozen: true }', 'steps:', '  - answer: { status: 503 }']));
  await petstore(new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer log-test-key-0001' } }));
}

describe('the request log', () => {
  it('pretty: one line per request with time, method, path, status, redacted key, session, duration and why', async () => {
    const lines = (await logged('pretty', traffic)).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^2026-03-10T12:00:00\.000Z GET \/v1\/pets\?limit=1 -> 200 key=log-…001 session=w1 [\d.]+ms$/);
    expect(lines[1]).toMatch(/^2026-03-10T12:00:00\.000Z GET \/v1\/pets\/0 -> 404 key=log-…001 session=default [\d.]+ms \(pet_not_found: No animal has id 0\./);
    expect(lines[2]).toMatch(/^2026-03-10T12:00:00\.000Z GET \/v1\/pets -> 503 key=log-…001 session=default [\d.]+ms \(service_unavailable: scenario outage, step 1: forced 503\)$/);
  });

  it('json: one object per line with the same fields, the forced answer\'s reason included, no key in full', async () => {
    const text = await logged('json', traffic);
    expect(text).not.toContain('log-test-key-0001');
    const entries = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map(({ durationMs, ...rest }) => (expect(typeof durationMs).toBe('number'), rest))).toEqual([
      { level: 'info', msg: 'request', seq: 1, at: '2026-03-10T12:00:00.000Z', session: 'w1', method: 'GET', path: '/v1/pets', query: 'limit=1', status: 200, reason: 'listed animals (limit 1)', key: 'log-…001' },
      { level: 'info', msg: 'request', seq: 1, at: '2026-03-10T12:00:00.000Z', session: 'default', method: 'GET', path: '/v1/pets/0', query: '', status: 404, code: 'pet_not_found', reason: expect.stringContaining('No animal has id 0'), key: 'log-…001' },
      { level: 'info', msg: 'request', seq: 1, at: '2026-03-10T12:00:00.000Z', session: 'default', method: 'GET', path: '/v1/pets', query: '', status: 503, code: 'service_unavailable', reason: 'scenario outage, step 1: forced 503', key: 'log-…001' },
    ]);
  });
});
