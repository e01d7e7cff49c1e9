import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { call } from '../support/mock.js';
import { rawExchange, rawRequest } from '../support/raw.js';

// A client pairs answers with requests by their order on the connection. Whatever mix of good
// and unreadable requests it pipelines, each good one before the first unreadable one gets its
// own answer, in order; the unreadable one gets its error after them; nothing after it is
// served, and the connection closes.

type Good = { kind: 'get'; id: number } | { kind: 'create'; name: string } | { kind: 'list' };
type Bad = { kind: 'garbage' } | { kind: 'huge-header' } | { kind: 'bad-chunk' };
type Step = Good | Bad;

const AUTH = 'Authorization: Bearer demo-enterprise\r\n';

function bytesOf(step: Step, last: boolean): string {
  const close = last ? 'Connection: close\r\n' : '';
  switch (step.kind) {
    case 'get':
      return `GET /v1/pets/${step.id} HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}${close}\r\n`;
    case 'list':
      return `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}${close}\r\n`;
    case 'create': {
      const body = JSON.stringify({ name: step.name, categoryId: 1 });
      return `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${close}\r\n${body}`;
    }
    case 'garbage':
      return 'GARBAGE\r\n\r\n';
    case 'huge-header':
      return `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\n\r\n`;
    case 'bad-chunk':
      return `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`;
  }
}

const BAD_ANSWER: Record<Bad['kind'], [number, string]> = {
  garbage: [400, 'bad_request'],
  'huge-header': [431, 'headers_too_large'],
  'bad-chunk': [400, 'bad_request'],
};

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());

/** The names of the animals the store holds that this test created. */
async function created(): Promise<string[]> {
  const list = (await call(mock, '/v1/pets?limit=100', { key: 'demo-enterprise' })).json as { data: { name: string }[] } | { name: string }[];
  const pets = Array.isArray(list) ? list : list.data;
  return pets.map((p) => p.name).filter((n) => n.startsWith('piped-'));
}

describe('pipelined requests, good and unreadable', () => {
  let counter = 0;
  const good: fc.Arbitrary<Good> = fc.oneof(
    fc.record({ kind: fc.constant('get' as const), id: fc.integer({ min: 1, max: 50 }) }),
    fc.constant({ kind: 'list' as const }),
    fc.constant(null).map(() => ({ kind: 'create' as const, name: `piped-${++counter}` })),
  );
  const bad: fc.Arbitrary<Bad> = fc.constantFrom<Bad>({ kind: 'garbage' }, { kind: 'huge-header' }, { kind: 'bad-chunk' });

  it('answer each good request in order, then the error, then close; nothing after the error is served', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(good, { maxLength: 5 }),
        fc.option(bad, { nil: undefined }),
        fc.array(good, { maxLength: 2 }),
        fc.integer({ min: 1, max: 4 }),
        async (before, broken, after, pieces) => {
          mock.reset();
          const steps: Step[] = broken ? [...before, broken, ...after] : before.length > 0 ? before : [{ kind: 'list' }];
          const served = broken ? before : steps;
          const text = steps.map((s, i) => bytesOf(s, !broken && i === steps.length - 1)).join('');
          // Sent in a few pieces cut anywhere, as TCP may deliver them.
          const size = Math.ceil(text.length / pieces);
          const chunks = Array.from({ length: pieces }, (_, i) => text.slice(i * size, (i + 1) * size)).filter((c) => c !== '');
          const { replies, rest, closed } = await rawExchange(mock, chunks);

          expect(rest).toBe('');
          expect(closed).toBe(true);
          expect(replies.length).toBe(served.length + (broken ? 1 : 0));
          served.forEach((step, i) => {
            const reply = replies[i];
            if (step.kind === 'get') expect([reply?.status, reply?.json?.id]).toEqual([200, step.id]);
            if (step.kind === 'list') expect(reply?.status).toBe(200);
            if (step.kind === 'create') expect([reply?.status, reply?.json?.name]).toEqual([201, step.name]);
          });
          if (broken) {
            const last = replies[replies.length - 1];
            expect([last?.status, last?.json?.code]).toEqual(BAD_ANSWER[broken.kind]);
          }
          // Exactly the creates that were answered are stored, once each.
          const names = served.filter((s): s is Good & { kind: 'create' } => s.kind === 'create').map((s) => s.name);
          expect((await created()).sort()).toEqual(names.sort());
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with a scenario latency, the delayed 200 still comes before the 400 (the report: the 200 was replaced)', async () => {
    const slow = await startMock({ scenario: 'slow' });
    try {
      const { replies, closed } = await rawExchange(slow, [`GET /v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}\r\nGARBAGE\r\n\r\n`]);
      expect(replies.map((r) => r.status)).toEqual([200, 400]);
      expect(closed).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe('an HTTP/1.1 request without Host', () => {
  it('is a 400 bad_request with the Error body, and the connection closes', async () => {
    const reply = await rawRequest(mock, `GET /v1/pets HTTP/1.1\r\n${AUTH}\r\n`);
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ code: 'bad_request', status: 400, message: expect.stringContaining('Host header') });
    expect(reply.headers.connection).toBe('close');
  });

  it('HTTP/1.0 may leave it out', async () => {
    const reply = await rawRequest(mock, `GET /v1/pets/1 HTTP/1.0\r\n${AUTH}\r\n`);
    expect(reply.status).toBe(200);
  });
});
