import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.js';
import { run, waitFor, type CliRun } from './cli.js';

// A rolling restart behind Debian's haproxy with its default retries: two replicas of the built
// CLI, haproxy health-checking /__admin/health, clients on keep-alive connections sending all
// along, each replica stopped with SIGTERM and started again in turn. The lame duck (health 503
// while answering with Connection: close) must take each replica out before it stops accepting:
// no request may fail.

const HAPROXY = '/usr/sbin/haproxy';
const dir = mkdtempSync(join(tmpdir(), 'petstore-haproxy-'));
const started: (CliRun | ChildProcess)[] = [];

afterAll(() => {
  for (const p of started) {
    const child = 'child' in p ? p.child : p;
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

/** One replica of the CLI on a fixed port, ready. */
async function replica(port: number): Promise<CliRun> {
  const r = run(process.execPath, [
    'dist/cli.js',
    '--port',
    String(port),
    '--quiet',
    '--ready-json',
    '--lame-duck-time',
    '1',
    '--key',
    'bulk:enterprise:100000000:1000000000',
  ]);
  started.push(r);
  await waitFor(r, /^\{.*\}\n/m);
  // The admin API loads on its first request; haproxy's first check then finds it loaded.
  expect((await fetch(`http://127.0.0.1:${port}/__admin/health`)).status).toBe(200);
  return r;
}

/** Requests the replica on `port` received, from its journal. */
async function received(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/__admin/requests/count`);
  return ((await res.json()) as { count: number }).count;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a rolling restart behind haproxy', () => {
  it('loses no request while each replica is stopped with SIGTERM and started again', async () => {
    expect(existsSync(HAPROXY), 'this test needs Debian haproxy (scripts/ensure-system-packages.sh installs it)').toBe(true);
    const ports = [await freePort(), await freePort()];
    const front = await freePort();
    const replicas = await Promise.all(ports.map(replica));
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 10s',
        '  timeout server 10s',
        // Without it a check may take no longer than its interval, less than the admin API's first load.
        '  timeout check 5s',
        'frontend api',
        `  bind 127.0.0.1:${front}`,
        '  default_backend mocks',
        'backend mocks',
        '  balance roundrobin',
        '  option httpchk GET /__admin/health',
        ...ports.map((port, i) => `  server mock${i} 127.0.0.1:${port} check inter 200ms fall 1 rise 2`),
        '',
      ].join('\n'),
    );
    const haproxy = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    started.push(haproxy);
    let haproxyLog = '';
    haproxy.stderr?.on('data', (d: Buffer) => (haproxyLog += d.toString()));
    await until(
      async () => (await fetch(`http://127.0.0.1:${front}/v1/pets?limit=1`, { headers: { authorization: 'Bearer bulk' } })).status === 200,
      'haproxy',
    );

    // Four clients on keep-alive connections, each sending one request after another throughout.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const failures: string[] = [];
    let answered = 0;
    let sending = true;
    const client = async (): Promise<void> => {
      while (sending) {
        const outcome = await new Promise<string>((resolve) => {
          const req = request({ host: '127.0.0.1', port: front, path: '/v1/pets?limit=1', agent, headers: { authorization: 'Bearer bulk' } }, (res) => {
            res.resume();
            res.on('end', () => resolve(String(res.statusCode)));
            res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          });
          req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          req.end();
        });
        if (outcome === '200') answered++;
        else failures.push(outcome);
      }
    };
    const clients = Array.from({ length: 4 }, client);

    for (let i = 0; i < replicas.length; i++) {
      const port = ports[i] as number;
      const old = replicas[i] as CliRun;
      // Both take traffic before this one goes.
      const before = answered;
      await until(async () => answered > before + 50 && (await received(port)) > 0, `traffic to replica ${i}`);
      old.child.kill('SIGTERM');
      expect(await old.exited).toBe(0);
      expect(old.stderr()).toBe('');
      const fresh = await replica(port);
      replicas[i] = fresh;
      // Back in haproxy's pool: the new replica receives requests before the next one goes.
      await until(async () => (await received(port)) > 20, `haproxy to send to the new replica ${i}`);
    }
    sending = false;
    await Promise.all(clients);
    agent.destroy();
    if (failures.length > 0) console.log(haproxyLog);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(100);
    haproxy.kill('SIGTERM');
    expect(haproxyLog).not.toMatch(/ALERT/);
  }, 120_000);
});
