// Real Redis topologies for the shared-state tests, started on free ports and stopped by PID: a
// Redis Cluster of six `redis-server --cluster-enabled yes` (three primaries, three replicas)
// and a Sentinel group (a primary, a replica and three `redis-sentinel`). Timeouts are short so a
// failover takes a second or two, not half a minute.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p)) ?? 'redis-server';
const SENTINEL = ['/usr/bin/redis-sentinel', '/usr/local/bin/redis-sentinel'].find((p) => existsSync(p));

/** Whether the Sentinel tests can run here (Debian's redis-sentinel). */
export function sentinelAvailable(): boolean {
  if (SENTINEL) return true;
  if (process.env.CI === 'true')
    throw new Error("petstore-mock tests: CI must run the Sentinel tests, and redis-sentinel is missing; install Debian's redis-sentinel.");
  console.warn("petstore-mock tests: skipping the Sentinel tests: redis-sentinel is not installed; install it with 'sudo apt-get install redis-sentinel'.");
  return false;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 30000);
    if (taken.has(port) || taken.has(port + 10000)) continue;
    if ((await portFree(port)) && (await portFree(port + 10000))) {
      taken.add(port);
      taken.add(port + 10000);
      return port;
    }
  }
}

/** Runs redis-cli against a port and gives its output. */
export function cli(port: number, ...args: string[]): string {
  return spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();
}

async function until(what: string, test: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`test Redis: ${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One redis-server or redis-sentinel process. */
export class RedisProcess {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly command: string,
    private readonly args: string[],
    private readonly ready: RegExp,
  ) {}

  async launch(): Promise<void> {
    const child = spawn(this.command, this.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (this.ready.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`${this.command} exited (${code}) before it was ready: ${out.slice(-500)}`)));
    });
  }

  cli(...args: string[]): string {
    return cli(this.port, ...args);
  }

  /** SIGKILL, and wait until it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
}

// A replica's first full sync starts at once (Redis waits 5 s by default for more replicas to join it).
const FAST_SYNC = ['--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0'];

/** The arguments every test's redis-server starts with: its port and address, and nothing written to disk. */
export function redisArgs(port: number, address: string): string[] {
  return ['--port', String(port), '--bind', address, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'];
}

function server(port: number, dir: string, extra: string[]): RedisProcess {
  const args = [...redisArgs(port, '127.0.0.1'), '--dir', dir, ...FAST_SYNC, ...extra];
  return new RedisProcess(port, SERVER, args, /Ready to accept connections/);
}

/** One redis-server on a free port with its own directory, started; `extra` are more arguments. */
export async function startNode(extra: string[] = [], port?: number): Promise<RedisProcess & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  const node = Object.assign(server(port ?? (await freeClusterPort(new Set())), dir, extra), { dir });
  await node.launch();
  return node;
}

/** Six nodes joined as a cluster: three primaries, each with a replica. */
export class TestCluster {
  private constructor(
    readonly nodes: RedisProcess[],
    private readonly dir: string,
  ) {}

  /** Any node's URL: the mock must find the rest. */
  get url(): string {
    return `redis://127.0.0.1:${this.nodes[0]?.port}/0`;
  }

  static async start(): Promise<TestCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-cluster-'));
    const taken = new Set<number>();
    const nodes: RedisProcess[] = [];
    for (let i = 0; i < 6; i++) {
      const port = await freeClusterPort(taken);
      nodes.push(
        server(port, dir, [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '1000',
          '--cluster-replica-validity-factor',
          '0',
        ]),
      );
    }
    const cluster = new TestCluster(nodes, dir);
    await Promise.all(nodes.map((n) => n.launch()));
    const created = spawnSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'], {
      encoding: 'utf8',
    });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    await until('cluster_state:ok on every node', () => nodes.every((n) => n.cli('CLUSTER', 'INFO').includes('cluster_state:ok')));
    await until('every replica in sync', () =>
      nodes.every((n) => !n.cli('ROLE').startsWith('slave') || n.cli('INFO', 'replication').includes('master_link_status:up')),
    );
    return cluster;
  }

  /** The node serving a key now (its slot's primary). */
  primaryOf(key: string): RedisProcess {
    const slot = Number(this.nodes[0]?.cli('CLUSTER', 'KEYSLOT', key));
    for (const node of this.nodes) {
      const line = node
        .cli('CLUSTER', 'NODES')
        .split('\n')
        .find((l) => l.includes('myself'));
      if (!line || !line.includes('master') || line.includes('fail')) continue;
      for (const range of line.split(' ').slice(8)) {
        const [from, to = from] = range.split('-').map(Number);
        if (from !== undefined && to !== undefined && slot >= from && slot <= to) return node;
      }
    }
    throw new Error(`test Redis: no primary serves ${key}`);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.kill()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A primary and a replica watched by three sentinels (quorum 2) under the name `mymaster`. */
export class TestSentinel {
  private constructor(
    readonly primary: RedisProcess,
    readonly replica: RedisProcess,
    readonly sentinels: RedisProcess[],
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis+sentinel://${this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/mymaster/0`;
  }

  static async start(): Promise<TestSentinel> {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sentinel-'));
    const taken = new Set<number>();
    const primaryPort = await freeClusterPort(taken);
    const primary = server(primaryPort, dir, []);
    await primary.launch();
    const replica = server(await freeClusterPort(taken), dir, ['--replicaof', '127.0.0.1', String(primaryPort)]);
    await replica.launch();
    await until('the replica in sync', () => replica.cli('INFO', 'replication').includes('master_link_status:up'));
    const sentinels: RedisProcess[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freeClusterPort(taken);
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'protected-mode no',
          `sentinel monitor mymaster 127.0.0.1 ${primaryPort} 2`,
          'sentinel down-after-milliseconds mymaster 500',
          'sentinel failover-timeout mymaster 2000',
          'sentinel parallel-syncs mymaster 1',
          '',
        ].join('\n'),
      );
      sentinels.push(new RedisProcess(port, SENTINEL ?? 'redis-sentinel', [conf], /\+monitor master/));
    }
    await Promise.all(sentinels.map((s) => s.launch()));
    const group = new TestSentinel(primary, replica, sentinels, dir);
    await until('every sentinel sees the replica and the others', () =>
      sentinels.every(
        (s) =>
          /num-slaves\s+1\b/.test(s.cli('SENTINEL', 'MASTER', 'mymaster').replace(/\n/g, ' ')) &&
          /num-other-sentinels\s+2\b/.test(s.cli('SENTINEL', 'MASTER', 'mymaster').replace(/\n/g, ' ')),
      ),
    );
    return group;
  }

  /** The port the sentinels name as the primary now. */
  primaryPort(): number {
    const [, port] = (this.sentinels[0]?.cli('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster') ?? '').split('\n');
    return Number(port);
  }

  /** Waits until the sentinels name another primary than `port`. */
  async promotedFrom(port: number): Promise<void> {
    await until('a promotion', () => this.primaryPort() !== port && this.primaryPort() > 0);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, this.primary, this.replica].map((n) => n.kill()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
