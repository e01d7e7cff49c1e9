import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import { answerClientError } from '../../src/http/raw-answers.js';
import { listen } from '../../src/http/server.js';
import { andThen } from '../../src/core/maybe.js';
import type { ApiHandler } from '../../src/core/state/backend.js';
import { rawRequest } from '../support/raw.js';

const opened = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });

/** Everything a socket receives until the server closes it. */
const received = (socket: Socket): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('close', () => resolve(text));
  });

describe('the connection cap', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ maxConnections: 3 });
  });
  afterAll(() => mock.close());

  it('answers a connection past the cap 503 too_many_connections and closes it; those within it are served', async () => {
    const held = await Promise.all([opened(mock.port), opened(mock.port), opened(mock.port)]);
    const extra = await opened(mock.port);
    const answer = await received(extra);
    // Its type and length first, as the API's error answers written on a bare socket always began.
    expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\nContent-Type: application\/json\r\nContent-Length: \d+\r\n/);
    expect(answer).toContain('Retry-After: 1\r\n');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ code: 'too_many_connections', status: 503, message: expect.stringContaining('maximum of 3 open connections') });

    // A held connection is still served in full.
    const reply = received(held[0]);
    held[0].write('GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-free\r\nConnection: close\r\n\r\n');
    expect(await reply).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const socket of held) socket.destroy();

    // Once the server has seen them go, fresh clients are served again (each try is a real request, no sleep).
    let status = 0;
    for (let attempt = 0; attempt < 200 && status !== 200; attempt++) {
      status = (await rawRequest(mock, 'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-free\r\nConnection: close\r\n\r\n')).status;
    }
    expect(status).toBe(200);
  });
});

describe('a client that does not read its answers', () => {
  it('is disconnected after the write timeout, and others are served meanwhile', async () => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({})) });
    const running = await listen(engine, { port: 0, host: '127.0.0.1', writeTimeoutMs: 200 });
    const port = Number(new URL(running.origin).port);
    try {
      // The server's side of the connection: a paused client would not even see its own socket close.
      const serverSide = new Promise<Socket>((resolve) => running.server.once('connection', resolve));
      const stalled = await opened(port);
      stalled.pause();
      const closed = serverSide.then((socket) => new Promise<boolean>((resolve) => socket.on('close', () => resolve(true))));
      // Far more answer than the socket buffers hold, so the server is left holding the rest.
      stalled.write('GET /v1/pets?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-enterprise\r\n\r\n'.repeat(2_000));
      // The other client connects once the server has answered the burst it read in one go and
      // stopped reading for backpressure. Connected earlier, its connection sat unread while the
      // server (this process) spent longer than the 200 ms write timeout on that burst, so it was
      // closed as idle with its request unread, and fetch waited for ever: one run in four.
      const server = await serverSide;
      for (let i = 0; i < 10_000 && !server.isPaused() && !server.destroyed; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(server.isPaused() || server.destroyed).toBe(true);
      const other = await fetch(`${running.origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
      expect(other.status).toBe(200);
      expect(await closed).toBe(true);
      stalled.destroy();
    } finally {
      await running.close();
    }
  });

  it('is not disconnected while it reads, however slowly', async () => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({})) });
    const running = await listen(engine, { port: 0, host: '127.0.0.1', writeTimeoutMs: 400 });
    try {
      const serverSide = new Promise<Socket>((resolve) => running.server.once('connection', resolve));
      const slow = await opened(Number(new URL(running.origin).port));
      let text = '';
      /** Reads at least `bytes` and no more than the socket has buffered past them. */
      const readSome = async (bytes: number): Promise<void> => {
        for (let got = 0; got < bytes && !slow.readableEnded;) {
          const chunk = slow.read() as Buffer | null;
          if (chunk === null) await new Promise((resolve) => slow.once('readable', resolve));
          else {
            got += chunk.length;
            text += chunk.toString('latin1');
          }
        }
      };
      // About 16 MB of answers (3.3 kB each), several times what the sockets' buffers hold, within the key's 5,000 a minute.
      slow.write('GET /v1/pets?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-enterprise\r\n\r\n'.repeat(5_000));
      const server = await serverSide;
      for (let i = 0; i < 10_000 && !server.isPaused(); i++) await new Promise((resolve) => setImmediate(resolve));
      expect(server.isPaused()).toBe(true);
      // Two timeouts of reading 1 MiB every 100 ms, the server held up by the client throughout (the
      // system passes what the client read on to the server in steps of about 2 MB here).
      for (let i = 0; i < 8; i++) {
        await readSome(1024 * 1024);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(server.destroyed).toBe(false);
      }
      // Then at full speed: every answer comes, and the connection goes once idle.
      const closed = new Promise<void>((resolve) => slow.on('close', () => resolve()));
      await readSome(Infinity);
      await closed;
      expect(text.split('HTTP/1.1 200 OK\r\n').length - 1).toBe(5_000);
    } finally {
      await running.close();
    }
  });

  it('is the same for a connection refused over the cap that does not read its 503', async () => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({})) });
    const running = await listen(engine, { port: 0, host: '127.0.0.1', writeTimeoutMs: 100, maxConnections: 1 });
    const port = Number(new URL(running.origin).port);
    try {
      // The server's sides of the connections, by their client's port.
      const serverSides = new Map<number, Socket>();
      running.server.on('connection', (socket: Socket) => serverSides.set(socket.remotePort ?? 0, socket));
      const held = await opened(port);
      const extra = await opened(port);
      extra.pause();
      await vi.waitFor(() => expect(serverSides.has(extra.localPort ?? -1)).toBe(true));
      const server = serverSides.get(extra.localPort ?? -1) as Socket;
      // Closed by the server itself, its client never reading the 503 nor closing.
      await new Promise<void>((resolve) => (server.destroyed ? resolve() : server.on('close', () => resolve())));
      expect(server.destroyed).toBe(true);
      held.destroy();
      extra.destroy();
    } finally {
      await running.close();
    }
  });

  it('is the same for a connection that never sends a request', async () => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({})) });
    const running = await listen(engine, { port: 0, host: '127.0.0.1', writeTimeoutMs: 100 });
    try {
      const silent = await opened(Number(new URL(running.origin).port));
      expect(await received(silent)).toBe('');
    } finally {
      await running.close();
    }
  });

  it('does not count a scenario latency longer than the timeout as idleness', async () => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({})) });
    // The engine's answers held back four write timeouts, as a scenario's latency holds them.
    const held: ApiHandler = {
      handle: (req) => andThen(engine.handle(req), (response) => ({ ...response, delayMs: 400 })),
      refuse: (req, error) => engine.refuse(req, error),
      anonymousRateHeaders: (address) => engine.anonymousRateHeaders(address),
    };
    const running = await listen(held, { port: 0, host: '127.0.0.1', writeTimeoutMs: 100 });
    try {
      const socket = await opened(Number(new URL(running.origin).port));
      const reply = received(socket);
      socket.write('GET /v1/pets/3 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-free\r\n\r\n');
      // Answered after its latency; then, with nothing more read or written, closed.
      expect(await reply).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*"id":3/);
    } finally {
      await running.close();
    }
  });
});

describe('answers Node gives outside a request', () => {
  const written = (code: string): string => {
    let out = '';
    const socket = { writable: true, end: (text: string) => (out = text), destroy: () => undefined } as unknown as Socket;
    answerClientError(Object.assign(new Error(code), { code }), socket);
    return out;
  };

  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', 'request_timeout'],
    ['HPE_HEADER_OVERFLOW', 431, 'Request Header Fields Too Large', 'headers_too_large'],
    ['HPE_INVALID_METHOD', 400, 'Bad Request', 'bad_request'],
  ])('%s -> %i %s', (code, status, reason, errorCode) => {
    const out = written(code);
    expect(out.startsWith(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: `)).toBe(true);
    expect(out).toMatch(/\r\nConnection: close\r\n\r\n/);
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toEqual({ code: errorCode, status, message: expect.any(String) });
  });
});

describe('414 for every method', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock.close());

  it.each(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PROPFIND'])('%s with a 15 KiB target -> 414 uri_too_long', async (method) => {
    const reply = await rawRequest(mock, `${method} /v1/pets?q=${'x'.repeat(15 * 1024)} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(reply.status).toBe(414);
    expect(reply.json.code).toBe('uri_too_long');
  });

  it('CONNECT with a 15 KiB target -> 414 uri_too_long', async () => {
    const reply = await rawRequest(mock, `CONNECT ${'x'.repeat(15 * 1024)}.example:443 HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(reply.status).toBe(414);
    expect(reply.json.code).toBe('uri_too_long');
  });
});
