import { connect, type Socket } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PET_COUNT } from '../../src/core/state/seed.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { cliLauncher, waitFor } from '../e2e/cli.js';
import { call, post, useMock } from '../support/mock.js';
import { rawRequest } from '../support/raw.js';
import { at } from '../support/checked.js';

const { mock, fresh } = useMock({ keys: ['bulk:enterprise:1000000:10000000'] });
beforeEach(fresh);

const SEEDED = DEFAULT_PET_COUNT;
const BODY = '{"name":"Rex","categoryId":3}';

function open(m: RunningMock): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(m.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Rejects when `promise` has not settled within `ms`: a bound on shutdown, not a speed check. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const head = (length: number): string =>
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer bulk\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('clients that go away', () => {
  it('disconnects mid-body store nothing and leave the server answering', async () => {
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const socket = await open(mock());
        socket.on('error', () => undefined);
        socket.write(head(BODY.length) + BODY.slice(0, i % BODY.length));
        await new Promise((r) => setImmediate(r));
        if (i % 2) socket.resetAndDestroy();
        else socket.destroy();
      }),
    );
    const created = await call(mock(), '/v1/pets', { ...post(BODY), key: 'bulk' });
    expect(created.status).toBe(201);
    expect(created.json.id).toBe(SEEDED + 1);
    expect(
      mock()
        .requests()
        .filter((e) => e.method === 'POST'),
    ).toHaveLength(1);
  });

  it('disconnects mid-response leave the server answering, and creates already made stay made', async () => {
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const socket = await open(mock());
        socket.on('error', () => undefined);
        const gone = new Promise<void>((resolve) => socket.on('close', () => resolve()));
        if (i % 3 === 0) socket.write(head(BODY.length) + BODY);
        else socket.write(`GET /v1/${i % 3 === 1 ? 'openapi.json' : 'pets?limit=100'} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer bulk\r\n\r\n`);
        // Hang up on the first bytes of the answer, or before any when the answer is slow to come.
        socket.once('data', () => (i % 2 ? socket.resetAndDestroy() : socket.destroy()));
        await gone;
      }),
    );
    expect((await call(mock(), '/v1/pets?limit=1', { key: 'bulk' })).status).toBe(200);
    const next = await call(mock(), '/v1/pets', { ...post(BODY), key: 'bulk' });
    expect(next.json.id).toBe(SEEDED + 10 + 1);
  });

  it('a slow client trickling its headers and body is served, and others are served meanwhile', async () => {
    const socket = await open(mock());
    const text = head(BODY.length) + BODY;
    const answer = new Promise<string>((resolve) => {
      let out = '';
      socket.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\r\n\r\n{')) resolve(out);
      });
    });
    const dribble = async (part: string): Promise<void> => {
      for (let i = 0; i < part.length; i += 8) {
        socket.write(part.slice(i, i + 8));
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    // Half the headers, then another client is served in full, then the rest trickles in.
    const half = Math.floor(text.indexOf('Content-Type') / 2);
    await dribble(text.slice(0, half));
    const other = await call(mock(), '/v1/pets?limit=2', { key: 'bulk' });
    expect(other.status).toBe(200);
    await dribble(text.slice(half));
    expect(await answer).toMatch(/^HTTP\/1\.1 201 /);
    socket.destroy();
  });

  it('a client that never reads its answers does not hold up others', async () => {
    const socket = await open(mock());
    socket.pause();
    socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(200));
    const res = await rawRequest(mock(), 'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer bulk\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    socket.destroy();
  });
});

describe('stopping in the middle of traffic', () => {
  it('close() ends within a bound; every answer a client got is whole, and the store is consistent', async () => {
    const m = await startMock({ keys: ['bulk:enterprise:1000000:10000000'] });
    const outcomes: ('ok' | 'cut')[] = [];
    let created = 0;
    let stopping: Promise<void> | undefined;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; ; i++) {
        try {
          const init = (w + i) % 3 === 0 ? { ...post(BODY), key: 'bulk' } : { key: 'bulk' };
          const res = await call(m, (w + i) % 3 === 0 ? '/v1/pets' : '/v1/pets?limit=50', init);
          expect([200, 201]).toContain(res.status);
          if (res.status === 201) created++;
          outcomes.push('ok');
          if (outcomes.length === 150) stopping = m.close();
        } catch (error) {
          if ((error as Error).name === 'AssertionError') throw error;
          outcomes.push('cut');
          return;
        }
      }
    };
    await within(Promise.all(Array.from({ length: 12 }, (_, w) => worker(w))), 15_000, 'the clients');
    expect(stopping).toBeDefined();
    await within(stopping as Promise<void>, 10_000, 'close()');
    expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThanOrEqual(150);
    await expect(fetch(`${m.url}/pets`)).rejects.toThrow();
    // Every answered create is in the store, with consecutive ids (a create whose answer was lost may be too).
    const store = m.engine.sessions.defaultSession.store;
    expect(store.size - SEEDED).toBeGreaterThanOrEqual(created);
    const ids = store.list(100_000).map((p) => p.id);
    expect(ids).toEqual(Array.from({ length: store.size }, (_, i) => i + 1));
  });
});

describe('connections that sit idle', () => {
  it('300 open connections that send nothing neither block others nor hold close() open', async () => {
    const m = await startMock();
    const idle = await Promise.all(Array.from({ length: 300 }, () => open(m)));
    const closed = idle.map((socket) => new Promise<void>((resolve) => socket.on('close', () => resolve())));
    for (const socket of idle) socket.on('error', () => undefined);
    // One that sent half its headers and stopped.
    at(idle, 0).write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    expect((await call(m, '/v1/pets?limit=1')).status).toBe(200);
    await within(m.close(), 10_000, 'close() with idle connections');
    await within(Promise.all(closed), 10_000, 'the idle connections closing');
  });
});

describe('SIGTERM on the command line in the middle of traffic', () => {
  const cli = cliLauncher('--port', '0', '--key', 'bulk:enterprise:1000000:10000000');

  it('keeps serving when whoever read its output goes away (petstore-mock | head)', async () => {
    const r = cli();
    const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    r.child.stdout.destroy();
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer bulk' } });
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(r.child.exitCode).toBeNull();
    r.child.kill('SIGTERM');
    expect(await within(r.exited, 10_000, 'the CLI')).toBe(0);
    expect(r.stderr()).toBe('');
  });

  it('exits 0 within a bound, having answered every request it took in whole', async () => {
    const r = cli('--quiet');
    const [, url] = await waitFor(r, /(http:\/\/127\.0\.0\.1:\d+\/v1)/);
    let answered = 0;
    let signalled = false;
    const worker = async (): Promise<void> => {
      for (;;) {
        let res: Response;
        try {
          res = await fetch(`${url}/pets?limit=20`, { headers: { authorization: 'Bearer bulk' } });
          const body = (await res.json()) as unknown[];
          expect(res.status).toBe(200);
          expect(body).toHaveLength(20);
        } catch (error) {
          if ((error as Error).name === 'AssertionError') throw error;
          expect(signalled).toBe(true);
          return;
        }
        answered++;
        if (answered === 200) {
          signalled = true;
          r.child.kill('SIGTERM');
        }
      }
    };
    await within(Promise.all(Array.from({ length: 8 }, worker)), 15_000, 'the clients');
    expect(await within(r.exited, 10_000, 'the CLI')).toBe(0);
    expect(answered).toBeGreaterThanOrEqual(200);
    expect(r.stderr()).toBe('');
  });
});
