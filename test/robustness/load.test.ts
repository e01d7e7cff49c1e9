import { connect } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PET_COUNT } from '../../src/core/state/seed.js';
import { call, post, useMock } from '../support/mock.js';
import { at } from '../support/checked.js';

const { mock, fresh } = useMock({ keys: ['q20:free:20:1000', 'q100:free:100:1000', 'q1:free:1:1000', 'bulk:enterprise:1000000:10000000'] });
beforeEach(fresh);

const SEEDED = DEFAULT_PET_COUNT;

describe('concurrent creates', () => {
  it('N = 200 concurrent creates give 200 distinct, consecutive ids and a consistent list', async () => {
    const n = 200;
    const created = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(mock(), '/v1/pets', { ...post({ name: `Load ${i}`, categoryId: i, status: i % 2 ? 'sold' : 'pending' }), key: 'bulk' }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(n).fill(201));
    const ids = created.map((r) => r.json.id as number);
    expect(new Set(ids).size).toBe(n);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => SEEDED + 1 + i));
    // Every created animal reads back as it was answered, by id and in the filtered lists.
    const byId = await Promise.all(created.map((r) => call(mock(), `/v1/pets/${r.json.id}`, { key: 'bulk' })));
    expect(byId.map((r) => r.text)).toEqual(created.map((r) => r.text));
    const pending = (await call(mock(), '/v1/pets?status=pending&limit=100', { key: 'bulk' })).json as { id: number; name: string }[];
    expect(pending.every((p, i) => i === 0 || p.id > at(pending, i - 1).id)).toBe(true);
    expect(
      mock()
        .requests()
        .filter((e) => e.method === 'POST' && e.status === 201),
    ).toHaveLength(Math.min(n, 1000));
  });

  it('concurrent creates in separate sessions number their ids independently', async () => {
    const sessions = ['w1', 'w2', 'w3', 'w4'];
    const per = 25;
    const results = await Promise.all(
      sessions.flatMap((s) =>
        Array.from({ length: per }, (_, i) =>
          call(mock(), '/v1/pets', { ...post({ name: `${s}-${i}`, categoryId: 1 }, { 'x-mock-session': s }), key: 'bulk' }).then((r) => [s, r] as const),
        ),
      ),
    );
    for (const s of sessions) {
      const ids = results
        .filter(([x]) => x === s)
        .map(([, r]) => r.json.id as number)
        .sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: per }, (_, i) => SEEDED + 1 + i));
    }
    expect((await call(mock(), `/v1/pets/${SEEDED + 1}`, { key: 'bulk' })).status).toBe(404);
  });
});

describe('concurrent requests on a key with a quota', () => {
  it.each([
    ['q20', 20, 50],
    ['q20', 20, 20],
    ['q20', 20, 7],
    ['q100', 100, 250],
    ['q1', 1, 40],
  ])('key %s (quota %i) with M = %i concurrent requests lets exactly min(M, Q) through', async (key, quota, m) => {
    const replies = await Promise.all(Array.from({ length: m }, () => call(mock(), '/v1/pets?limit=1', { key })));
    const ok = replies.filter((r) => r.status === 200);
    expect(ok).toHaveLength(Math.min(m, quota));
    expect(replies.filter((r) => r.status === 429)).toHaveLength(m - Math.min(m, quota));
    // Each answer let through saw a distinct remaining count: no two took the same slot.
    expect(new Set(ok.map((r) => r.headers.get('x-ratelimit-remaining'))).size).toBe(ok.length);
    const after = await call(mock(), '/v1/pets?limit=1', { key });
    expect(after.status).toBe(m >= quota ? 429 : 200);
  });

  it('the same across concurrent creates: min(M, Q) animals are stored, no more', async () => {
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(mock(), '/v1/pets', { ...post({ name: `Q${i}`, categoryId: 1 }), key: 'q20' })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(20);
    expect((await call(mock(), `/v1/pets/${SEEDED + 20}`, { key: 'bulk' })).status).toBe(200);
    expect((await call(mock(), `/v1/pets/${SEEDED + 21}`, { key: 'bulk' })).status).toBe(404);
  });
});

describe('pipelining', () => {
  it('100 requests pipelined on one connection are answered in order, each in whole', async () => {
    const socket = connect(mock().port, '127.0.0.1');
    const requests = Array.from({ length: 100 }, (_, i) =>
      i % 2
        ? `GET /v1/pets/${1 + (i % SEEDED)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer bulk\r\n\r\n`
        : `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer bulk\r\nContent-Type: application/json\r\nContent-Length: ${`{"name":"P${i}","categoryId":1}`.length}\r\n\r\n{"name":"P${i}","categoryId":1}`,
    );
    let received = '';
    const done = new Promise<void>((resolve) => {
      socket.on('data', (d: Buffer) => {
        received += d.toString();
        if ((received.match(/HTTP\/1\.1 /g) ?? []).length === 100 && received.endsWith('}')) resolve();
      });
    });
    socket.write(requests.join(''));
    await done;
    socket.destroy();
    const bodies = received
      .split(/HTTP\/1\.1 /)
      .slice(1)
      .map((answer) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)));
    expect(bodies.filter((_, i) => i % 2 === 0).map((b) => b.id)).toEqual(Array.from({ length: 50 }, (_, i) => SEEDED + 1 + i));
    expect(bodies.filter((_, i) => i % 2 === 1).map((b) => b.id)).toEqual(Array.from({ length: 50 }, (_, i) => 1 + ((2 * i + 1) % SEEDED)));
  });
});

describe('a short soak (the long one is npm run soak)', () => {
  it('1,100 mixed requests over 16 connections: no 5xx, the journal stays at its bound, state consistent', async () => {
    const total = 1100;
    const targets: [string, RequestInit & { key?: string | null }][] = [
      ['/v1/pets?limit=5', { key: 'bulk' }],
      ['/v1/pets?status=sold', { key: 'bulk' }],
      ['/v1/pets/7', { key: 'bulk' }],
      ['/v1/pets/999999', { key: 'bulk' }],
      ['/v1/pets?limit=0', { key: 'bulk' }],
      ['/v1/pets', { key: null }],
      ['/v1/pets', { ...post({ name: 'Soak', categoryId: 2 }), key: 'bulk' }],
      ['/v1/pets', { ...post('{"name":', {}), key: 'bulk' }],
      ['/v1/nope', { key: 'bulk' }],
      ['/v1/pets', { key: 'q1' }],
    ];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        const [path, init] = at(targets, next++ % targets.length);
        const res = await call(mock(), path, init);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const counted = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(counted).toBe(total);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    const journal = mock().requests();
    expect(journal).toHaveLength(1000);
    expect(journal.at(-1)?.seq).toBe(total);
    const creates = total / targets.length;
    expect(statuses.get(201)).toBe(creates);
    expect((await call(mock(), `/v1/pets/${SEEDED + creates}`, { key: 'bulk' })).status).toBe(200);
    expect((await call(mock(), `/v1/pets/${SEEDED + creates + 1}`, { key: 'bulk' })).status).toBe(404);
  });
});
