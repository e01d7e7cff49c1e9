import { describe, expect, it } from 'vitest';
import { DEFAULT_LINES_PER_SECOND, createRequestLogger, type LogFormat } from '../../src/cli/request-log.js';
import { createFetchHandler, type JournalEntry } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { writeScenario } from '../support/replay.js';
import { at } from '../support/checked.js';

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
  // Real time stands still at the frozen instant, so the entries need no realAt.
  const petstore = createFetchHandler({ onRequest, keys: ['log-test-key-0001:pro'], now: () => T0 });
  petstore.clock.freeze();
  petstore.clock.set(T0);
  const session = petstore.engine.sessions.resolve('w1').clock;
  session.freeze();
  session.set(T0);
  const auth = { headers: { authorization: 'Bearer log-test-key-0001', 'x-mock-session': 'w1' } };
  await petstore(new Request('http://mock.test/v1/pets?limit=1', auth));
  await petstore(new Request('http://mock.test/v1/pets/0', { headers: { authorization: 'Bearer log-test-key-0001' } }));
  petstore.useScenario(
    writeScenario('outage.yaml', [
      'description: the store is down once',
      'clock: { start: "2026-03-10T12:00:00Z", frozen: true }',
      'steps:',
      '  - answer: { status: 503 }',
    ]),
  );
  await petstore(new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer log-test-key-0001' } }));
}

describe('the request log', () => {
  it('pretty: one line per request with time, method, path, status, redacted key, session, duration and why', async () => {
    const lines = (await logged('pretty', traffic)).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^2026-03-10T12:00:00\.000Z GET \/v1\/pets\?limit=1 -> 200 key=log-…001 session=w1 [\d.]+ms$/);
    expect(lines[1]).toMatch(/^2026-03-10T12:00:00\.000Z GET \/v1\/pets\/0 -> 404 key=log-…001 session=default [\d.]+ms \(pet_not_found: No animal has id 0\./);
    expect(lines[2]).toMatch(
      /^2026-03-10T12:00:00\.000Z GET \/v1\/pets -> 503 key=log-…001 session=default [\d.]+ms \(service_unavailable: scenario outage, step 1: forced 503\)$/,
    );
  });

  it("json: one object per line with the same fields, the forced answer's reason included, no key in full", async () => {
    const text = await logged('json', traffic);
    expect(text).not.toContain('log-test-key-0001');
    const entries = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // Times the wall clock decides (the core's duration, the arrival and its wait) are numbers; the rest is exact.
    const timed = ({ durationMs, arrivalMs, queuedMs, ...rest }: Record<string, unknown>) => {
      expect(typeof durationMs).toBe('number');
      expect(typeof arrivalMs).toBe('number');
      expect(queuedMs === undefined || typeof queuedMs === 'number').toBe(true);
      return rest;
    };
    // The key's id is salted by the server, afresh for each: the same on every entry of its key.
    const KEY_ID = entries[0]!.keyId;
    expect(KEY_ID).toMatch(/^[0-9a-f]{8}$/);
    expect(entries.map(timed)).toEqual([
      {
        level: 'info',
        msg: 'request',
        seq: 1,
        at: '2026-03-10T12:00:00.000Z',
        session: 'w1',
        method: 'GET',
        path: '/v1/pets',
        query: 'limit=1',
        status: 200,
        reason: 'listed animals (limit 1)',
        key: 'log-…001',
        keyId: KEY_ID,
      },
      {
        level: 'info',
        msg: 'request',
        seq: 1,
        at: '2026-03-10T12:00:00.000Z',
        session: 'default',
        method: 'GET',
        path: '/v1/pets/0',
        query: '',
        status: 404,
        code: 'pet_not_found',
        reason: expect.stringContaining('No animal has id 0'),
        key: 'log-…001',
        keyId: KEY_ID,
        // The client audit's digest of body and redacted key, on rejections: the log shows the journal's fields.
        digest: expect.stringMatching(/^[0-9a-f]{8}-0$/),
      },
      {
        level: 'info',
        msg: 'request',
        seq: 1,
        at: '2026-03-10T12:00:00.000Z',
        session: 'default',
        method: 'GET',
        path: '/v1/pets',
        query: '',
        status: 503,
        code: 'service_unavailable',
        reason: 'scenario outage, step 1: forced 503',
        key: 'log-…001',
        keyId: KEY_ID,
      },
    ]);
  });
});

function entry(seq: number, status = 200): JournalEntry {
  return {
    seq,
    at: '2026-03-10T12:00:00.000Z',
    session: 'default',
    method: 'GET',
    path: '/v1/pets',
    query: 'limit=1',
    status,
    reason: 'listed animals (limit 1)',
    key: 'demo…ree',
    durationMs: 0.05,
  };
}

/** A logger on a hand-moved clock, with its timers held until the test fires them. */
function harness(format: 'pretty' | 'json', linesPerSecond = 3) {
  let now = 1_000_400;
  const timers: { fn: () => void; at: number }[] = [];
  const written: string[] = [];
  const log = createRequestLogger(format, (text) => written.push(text), {
    linesPerSecond,
    now: () => now,
    setTimer: (fn, ms) => timers.push({ fn, at: now + ms }),
  });
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    log,
    lines: () => written.join('').split('\n').filter(Boolean),
    writes: () => written.length,
    advance: (ms: number) => {
      now += ms;
      for (const t of timers.splice(0))
        if (t.at <= now) t.fn();
        else timers.push(t);
    },
    turn,
    timers: () => timers.length,
  };
}

describe('the request log under load', () => {
  it('prints one pretty line per request, written once per event-loop turn', async () => {
    const h = harness('pretty');
    h.log(entry(1));
    h.log({ ...entry(2, 404), path: '/v1/pets/999', query: '', code: 'pet_not_found', reason: 'No animal has id 999.' });
    expect(h.writes()).toBe(0);
    await h.turn();
    expect(h.writes()).toBe(1);
    expect(h.lines()).toEqual([
      '2026-03-10T12:00:00.000Z GET /v1/pets?limit=1 -> 200 key=demo…ree session=default 0.05ms',
      '2026-03-10T12:00:00.000Z GET /v1/pets/999 -> 404 key=demo…ree session=default 0.05ms (pet_not_found: No animal has id 999.)',
    ]);
  });

  it('past the lines of a second, counts the rest and sums them up when the second is over', async () => {
    const h = harness('pretty', 3);
    for (let i = 1; i <= 10; i++) h.log(entry(i, i % 5 === 0 ? 429 : 200));
    await h.turn();
    expect(h.lines()).toHaveLength(3);
    expect(h.timers()).toBe(1);
    h.advance(1000);
    await h.turn();
    expect(h.lines()).toHaveLength(4);
    expect(h.lines()[3]).toBe('… 7 more requests in that second not shown (200 ×5, 429 ×2); GET /__admin/requests lists the latest');
  });

  it('sums up a busy second as soon as the next second brings a request, and prints that one in full', async () => {
    const h = harness('json', 2);
    for (let i = 1; i <= 5; i++) h.log(entry(i));
    h.advance(1000);
    h.log(entry(6, 201));
    await h.turn();
    const lines = h.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual(['request', 'request', 'requests not shown', 'request']);
    expect(lines[2]).toEqual({ level: 'info', msg: 'requests not shown', count: 3, statuses: { 200: 3 } });
    expect(lines[3]).toMatchObject({ level: 'info', msg: 'request', seq: 6, status: 201 });
    h.advance(1000);
    await h.turn();
    expect(h.lines()).toHaveLength(4);
  });

  it('prints every request of a quiet second, second after second', async () => {
    const h = harness('pretty', 3);
    for (let s = 0; s < 4; s++) {
      for (let i = 0; i < 3; i++) h.log(entry(s * 3 + i + 1));
      h.advance(1000);
    }
    await h.turn();
    expect(h.lines()).toHaveLength(12);
    expect(h.lines().some((l) => l.includes('not shown'))).toBe(false);
  });

  it('by default caps the pretty log at a hundred lines a second and writes every request to the JSON log', async () => {
    const written = { pretty: '', json: '' };
    const now = () => 5_000_250;
    const noTimer = () => undefined;
    const pretty = createRequestLogger('pretty', (t) => (written.pretty += t), { now, setTimer: noTimer });
    const json = createRequestLogger('json', (t) => (written.json += t), { now, setTimer: noTimer });
    for (let i = 1; i <= 250; i++) {
      pretty(entry(i));
      json(entry(i));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.pretty.trimEnd().split('\n')).toHaveLength(DEFAULT_LINES_PER_SECOND);
    expect(DEFAULT_LINES_PER_SECOND).toBe(100);
    expect(
      written.json
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { seq: number }).seq),
    ).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
  });
});

describe('the request log when its reader does not keep up', () => {
  it.each(['json', 'pretty'] as const)('%s: drops and counts the lines a write refused, and says so in the next text written', async (format) => {
    const stats = { droppedLines: 0 };
    const written: string[] = [];
    let open = false;
    const log = createRequestLogger(format, (text) => (open ? (written.push(text), true) : false), { stats, setTimer: () => undefined, now: () => 7_000_000 });
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    log(entry(1));
    log(entry(2));
    await turn();
    log(entry(3));
    await turn();
    expect([written, stats.droppedLines]).toEqual([[], 3]);
    open = true;
    log(entry(4));
    await turn();
    const lines = written.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    if (format === 'json') {
      expect(JSON.parse(at(lines, 0))).toEqual({ level: 'warn', msg: 'log lines dropped', count: 3, why: 'stdout was not being read' });
      expect(JSON.parse(at(lines, 1))).toMatchObject({ msg: 'request', seq: 4 });
    } else {
      expect(lines[0]).toBe('… 3 log lines dropped: stdout was not being read; GET /__admin/requests lists the latest requests');
      expect(lines[1]).toContain('GET /v1/pets?limit=1 -> 200');
    }
    // Said once: the count starts again after a write went through, the total stays.
    log(entry(5));
    await turn();
    expect(written.join('').trimEnd().split('\n')).toHaveLength(3);
    expect(stats.droppedLines).toBe(3);
  });
});
