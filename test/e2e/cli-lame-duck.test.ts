import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cliLauncher, waitFor, waitForPortClosed, type CliRun } from './cli.js';

// SIGTERM as an orchestrator sends it (Kubernetes, docker stop, a rolling restart behind a load
// balancer), with the built CLI: a lame duck in which the mock still accepts and answers, each
// answer with Connection: close and /__admin/health with 503, then the drain.

const cli = cliLauncher('--port', '0', '--ready-json', '--quiet', '--key', 'bulk:enterprise:1000000:10000000');

async function ready(r: CliRun): Promise<number> {
  const [line] = await waitFor(r, /^\{.*\}\n/);
  return (JSON.parse(line) as { port: number }).port;
}

/** One answer read off a raw socket: its status and whether it ended the connection. */
interface Answer {
  status: number;
  close: boolean;
  /** When the request was written (`Date.now()`). */
  writtenAt: number;
}

/**
 * A client on raw keep-alive connections, as a load balancer or an SDK pool holds them: each
 * request goes on the open connection, a new one is opened only after an answer said
 * `Connection: close`. Anything else that ends a request (a reset, a connection closed before
 * the whole answer) is a failure, counted with its cause.
 */
class KeepAliveClient {
  private socket: Socket | undefined;
  readonly answers: Answer[] = [];
  readonly failures: string[] = [];

  constructor(private readonly port: number) {}

  /** Opens the connection ahead of time, so that later requests find it open and idle. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, '127.0.0.1', () => resolve());
      socket.once('error', reject);
      this.socket = socket;
    });
  }

  async request(): Promise<void> {
    if (this.socket === undefined || this.socket.destroyed) await this.open();
    const socket = this.socket as Socket;
    let writtenAt = 0;
    const answer = await new Promise<Answer | string>((resolve) => {
      let text = '';
      const done = (result: Answer | string): void => {
        socket.off('data', onData);
        socket.off('error', onError);
        socket.off('close', onClose);
        resolve(result);
      };
      const onData = (chunk: Buffer): void => {
        text += chunk.toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = text.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (text.length - end - 4 < length) return;
        done({ status: Number(head.slice(9, 12)), close: /\r\nconnection: *close/i.test(head), writtenAt });
      };
      const onError = (error: NodeJS.ErrnoException): void => done(error.code ?? error.message);
      const onClose = (): void => done('closed before the whole answer');
      socket.on('data', onData);
      socket.once('error', onError);
      socket.once('close', onClose);
      writtenAt = Date.now();
      socket.write('GET /v1/pets?limit=1 HTTP/1.1\r\nHost: mock\r\nAuthorization: Bearer bulk\r\n\r\n');
    });
    if (typeof answer === 'string') {
      this.failures.push(answer);
      this.socket?.destroy();
      this.socket = undefined;
      return;
    }
    this.answers.push(answer);
    if (answer.close) {
      socket.end();
      this.socket = undefined;
    }
  }

  close(): void {
    this.socket?.destroy();
  }
}

/** Resolves at `instant` (a `Date.now()` value); at once if it has passed. */
function at(instant: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, instant - Date.now())));
}

async function health(port: number): Promise<number | string> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/__admin/health`)).status;
  } catch (error) {
    return ((error as { cause?: { code?: string } }).cause?.code ?? 'error') as string;
  }
}

describe('SIGTERM: the lame duck, then the drain', () => {
  it('answers every request written on a keep-alive connection at random instants around SIGTERM; none is reset', async () => {
    // The requests go out up to 1.5 s after the signal; a client writes its next one only once the
    // last is answered, so on a loaded machine its last writes lag behind their instants. 4 s of
    // lame duck keeps them all inside it (with 2 s, one was written after the listener closed).
    const r = cli('--lame-duck-time', '4');
    const port = await ready(r);
    const clients = Array.from({ length: 12 }, () => new KeepAliveClient(port));
    await Promise.all(clients.map((c) => c.open()));
    // The signal goes out shortly after every client has its connection open and idle; each
    // client then writes 8 requests at random instants from 250 ms before it to 1.5 s after
    // (inside the lame duck), each on the connection it holds.
    const signalAt = Date.now() + 300;
    const signalled = at(signalAt).then(() => r.child.kill('SIGTERM'));
    // The first instant health was seen at 503: the mock had taken the signal by then.
    let stoppingSeen = Number.POSITIVE_INFINITY;
    const watched = (async () => {
      await signalled;
      for (;;) {
        const status = await health(port);
        if (status === 503) stoppingSeen = Date.now();
        if (status !== 200) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    await Promise.all(
      clients.map(async (client) => {
        const instants = Array.from({ length: 8 }, () => signalAt - 250 + Math.random() * 1750).sort((a, b) => a - b);
        for (const instant of instants) {
          await at(instant);
          await client.request();
        }
      }),
    );
    await signalled;
    await watched;
    for (const client of clients) client.close();
    const answers = clients.flatMap((c) => c.answers);
    expect(clients.flatMap((c) => c.failures)).toEqual([]);
    expect(answers).toHaveLength(12 * 8);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Every request written once the mock was seen stopping was answered with Connection: close.
    const late = answers.filter((a) => a.writtenAt > stoppingSeen);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((a) => !a.close)).toEqual([]);
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toBe('');
  });

  it('keeps accepting with /__admin/health at 503 and the API answering, then stops accepting and exits 0', async () => {
    const r = cli('--lame-duck-time', '1');
    const port = await ready(r);
    expect(await health(port)).toBe(200);
    r.child.kill('SIGTERM');
    await expect.poll(() => health(port), { timeout: 5000, interval: 20 }).toBe(503);
    // A new connection in the lame duck is accepted and answered, told to close.
    const res = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, { headers: { authorization: 'Bearer bulk' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    const body = (await (await fetch(`http://127.0.0.1:${port}/__admin/health`)).json()) as { status: string };
    expect(body.status).toBe('stopping');
    await waitForPortClosed(port);
    expect(await r.exited).toBe(0);
  });

  it('has a lame duck by default: after SIGTERM health says 503 before the port closes', async () => {
    const r = cli();
    const port = await ready(r);
    r.child.kill('SIGTERM');
    await expect.poll(() => health(port), { timeout: 5000, interval: 20 }).toBe(503);
    await waitForPortClosed(port);
    expect(await r.exited).toBe(0);
  });

  // A lame duck of an hour: the test ends only if Ctrl-C and a second signal skip it.
  it('Ctrl-C (SIGINT) on an idle mock stops it at once, lame duck or not', async () => {
    const r = cli('--lame-duck-time', '3600');
    const port = await ready(r);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    await waitForPortClosed(port);
  });

  // The same signal again within a second is the one stop delivered twice (test/cli/stopping.test.ts).
  it('another signal in the lame duck cuts it short', async () => {
    const r = cli('--lame-duck-time', '3600');
    const port = await ready(r);
    r.child.kill('SIGTERM');
    await expect.poll(() => health(port), { timeout: 5000, interval: 20 }).toBe(503);
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(r.stderr()).toContain('a second signal: cutting the lame duck and the drain short');
  });

  it.each([
    [['--lame-duck-time', '1.5'], 'petstore-mock: --lame-duck-time must be a whole number from 0 to 3600, not "1.5".\n'],
    [['--lame-duck-time', '3601'], 'petstore-mock: --lame-duck-time must be a whole number from 0 to 3600, not "3601".\n'],
  ])('refuses %j in one line', async (args, line) => {
    const r = cli(...args);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toBe(line);
  });
});
