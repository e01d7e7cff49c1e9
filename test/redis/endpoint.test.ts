// A managed primary endpoint whose address moves after a failover (READONLY answers make the mock
// connect again), and a Redis behind TLS with a password: the URL's password never shows in any
// output or answer, whatever happens.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/index.js';
import { cliLauncher, waitFor } from '../e2e/cli.js';
import { redisAvailable } from '../support/redis.js';
import { freePort } from '../support/ports.js';
import { startNode, type RedisProcess } from '../support/redis-topologies.js';

const run = redisAvailable();

/** A TCP endpoint that forwards new connections to whichever server it points at now, as a cloud's primary endpoint does. */
class Endpoint {
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    public target: number,
  ) {}

  static async open(target: number): Promise<Endpoint> {
    const server = createServer();
    const endpoint = new Endpoint(server, target);
    server.on('connection', (client) => {
      const upstream = connect(endpoint.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        endpoint.sockets.add(s);
        s.on('close', () => endpoint.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function create(origin: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' },
    body: '{"name":"Moved","categoryId":1}',
  });
  return { status: res.status, body: await res.json() };
}

describe.skipIf(!run)('Redis endpoints', () => {
  const nodes: (RedisProcess & { dir: string })[] = [];
  afterAll(async () => {
    for (const n of nodes) {
      await n.kill();
      rmSync(n.dir, { recursive: true, force: true });
    }
  });

  it('a managed primary endpoint that moves: READONLY answers are 503s, then the mock reconnects to the new primary', async () => {
    const a = await startNode();
    const b = await startNode(['--replicaof', '127.0.0.1', String(a.port)]);
    nodes.push(a, b);
    const endpoint = await Endpoint.open(a.port);
    const mock = await startMock({ state: `redis://127.0.0.1:${endpoint.port}/0`, statePrefix: 'ep' });
    try {
      const first = await create(mock.origin);
      expect(first.status).toBe(201);
      // Its journal entry goes out with the next call or a flush a moment later: reading the journal
      // sends it now, so no background write can meet the READONLY before the requests below do.
      expect((await mock.requests()).length).toBe(1);
      // The replica holds what the primary answered (the premise of a failover that loses nothing).
      const synced = (): boolean => b.cli('HGET', '{ep}:s:default', 'nid') === a.cli('HGET', '{ep}:s:default', 'nid');
      for (let i = 0; i < 200 && !synced(); i++) await new Promise((r) => setTimeout(r, 25));
      // The failover: b is promoted, a follows it, and the endpoint's name now leads to b.
      b.cli('REPLICAOF', 'NO', 'ONE');
      a.cli('REPLICAOF', '127.0.0.1', String(b.port));
      endpoint.target = b.port;
      const seen: number[] = [];
      let readonly = '';
      for (let i = 0; i < 50 && seen.length === 0; i++) {
        const reply = await create(mock.origin);
        if (reply.status === 201) seen.push(reply.body.id);
        else {
          expect(reply.status).toBe(503);
          expect(reply.body.code).toBe('state_unavailable');
          readonly += reply.body.message + '\n';
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(readonly).toContain('Redis answered as a read-only replica');
      expect(seen).toEqual([first.body.id + 1]);
    } finally {
      await mock.close();
      await endpoint.close();
    }
  });

  describe('TLS and a password in the URL', () => {
    const start = cliLauncher('--port', '0', '--ready-json');
    const password = 'Pa55-w0rd-only-in-the-url';
    let tls: RedisProcess & { dir: string };
    let ca: string;

    beforeAll(async () => {
      // A node of its own for its directory, stopped with the others (it held the test's files and leaked before).
      const scratch = await startNode();
      nodes.push(scratch);
      const dir = scratch.dir;
      ca = join(dir, 'ca.pem');
      const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
      openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=petstore test CA');
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'redis.key', '-out', 'redis.csr', '-subj', '/CN=127.0.0.1');
      execFileSync('sh', ['-c', 'printf "subjectAltName=IP:127.0.0.1" > san.ext'], { cwd: dir });
      openssl(
        'x509',
        '-req',
        '-in',
        'redis.csr',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        'redis.crt',
        '-days',
        '1',
        '-extfile',
        'san.ext',
      );
      const port = await freePort();
      tls = await startNode(
        [
          // TLS only: the plain port the helper gives is closed (0), the TLS one takes its number.
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--requirepass',
          password,
          '--tls-cert-file',
          join(dir, 'redis.crt'),
          '--tls-key-file',
          join(dir, 'redis.key'),
          '--tls-ca-cert-file',
          ca,
          '--tls-auth-clients',
          'no',
        ],
        port,
      );
      nodes.push(tls);
    }, 30_000);

    it('serves over rediss:// and never prints or answers the password, also when Redis goes away or refuses it', async () => {
      const url = `rediss://default:${password}@127.0.0.1:${tls.port}/0`;
      const shown = `rediss://default:***@127.0.0.1:${tls.port}/0`;
      process.env.NODE_EXTRA_CA_CERTS = ca;
      const replica = start('--state', url, '--admin-token', 'admin-secret');
      const wrong = start('--state', url.replace(password, 'Wrong-pa55-word'));
      delete process.env.NODE_EXTRA_CA_CERTS;
      const origin = (JSON.parse((await waitFor(replica, /^\{.*\}$/m))[0]) as { origin: string }).origin;
      expect(await wrong.exited).toBe(1);
      expect(wrong.stderr()).toContain(`cannot reach the shared state at ${shown.replace(':***@', ':***@')}`);
      expect(wrong.stderr()).toContain('refused the credentials');
      const answers: string[] = [];
      const created = await create(origin);
      expect(created.status).toBe(201);
      answers.push(JSON.stringify(created.body));
      for (const path of ['health', 'requests', 'metrics']) {
        const res = await fetch(`${origin}/__admin/${path}`, { headers: { authorization: 'Bearer admin-secret' } });
        answers.push(await res.text());
      }
      expect(answers[1]).toContain(shown);
      await tls.kill();
      const down = await create(origin);
      expect(down.status).toBe(503);
      expect(down.body.message).toContain(shown);
      answers.push(JSON.stringify(down.body), await (await fetch(`${origin}/__admin/health`, { headers: { authorization: 'Bearer admin-secret' } })).text());
      for (const text of [...answers, replica.stdout(), replica.stderr(), wrong.stdout(), wrong.stderr()]) {
        expect(text).not.toContain(password);
        expect(text).not.toContain('Wrong-pa55-word');
      }
    }, 30_000);
  });
});
