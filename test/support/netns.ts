// A redis-server in a network namespace of the test's own, reached over a veth pair whose link
// the test cuts and restores (`ip link set … down/up`): a real partition between the mock and
// Redis, packets dropped in the kernel, TCP left to its own retries. Needs root (CI runs as
// root); elsewhere the tests that use it are skipped and say why.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { RedisProcess, redisArgs } from './redis-topologies.js';

const REDIS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

function ip(...args: string[]): { ok: boolean; err: string } {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  return { ok: r.status === 0, err: `${r.stderr ?? ''}${r.error?.message ?? ''}`.trim() };
}

/** Why network namespaces cannot be used here, or undefined when they can. In CI they must. */
export function netnsUnavailable(): string | undefined {
  let reason: string | undefined;
  if (!REDIS) reason = 'redis-server is not installed';
  else {
    const probe = `pmprobe${process.pid}`;
    const made = ip('netns', 'add', probe);
    if (!made.ok) reason = `ip netns add is not permitted here (${made.err || 'no ip command'}); run as root`;
    else ip('netns', 'del', probe);
  }
  if (reason && process.env.CI === 'true') throw new Error(`petstore-mock tests: CI must run the partition tests, and ${reason}.`);
  if (reason) console.warn(`petstore-mock tests: skipping the network partition tests: ${reason}.`);
  return reason;
}

/** A namespace and a veth pair into it: the host's side `NET.1/30`, the namespace's `NET.2/30`. */
interface Link {
  ns: string;
  hostSide: string;
  nsSide: string;
  net: string;
  nsAddress: string;
}

/** Makes a namespace of this process's own (names starting with `tag`) and the link into it, up. */
function makeLink(tag: string, more: (link: Link) => string[][] = () => []): Link {
  const id = process.pid % 100000;
  const net = `10.${tag === 'pm' ? 231 : 233}.${id % 250}`;
  const link: Link = { ns: `${tag}${id}`, hostSide: `${tag}h${id}`, nsSide: `${tag}n${id}`, net, nsAddress: `${net}.2` };
  const steps: string[][] = [
    ['netns', 'add', link.ns],
    ['link', 'add', link.hostSide, 'type', 'veth', 'peer', 'name', link.nsSide],
    ['link', 'set', link.nsSide, 'netns', link.ns],
    ['addr', 'add', `${net}.1/30`, 'dev', link.hostSide],
    ['link', 'set', link.hostSide, 'up'],
    ['-n', link.ns, 'addr', 'add', `${net}.2/30`, 'dev', link.nsSide],
    ['-n', link.ns, 'link', 'set', link.nsSide, 'up'],
    ['-n', link.ns, 'link', 'set', 'lo', 'up'],
    ...more(link),
  ];
  for (const step of steps) {
    const done = ip(...step);
    if (!done.ok) {
      removeLink(link.ns, link.hostSide);
      throw new Error(`ip ${step.join(' ')}: ${done.err}`);
    }
  }
  return link;
}

function removeLink(ns: string, hostSide: string): void {
  ip('link', 'del', hostSide);
  ip('netns', 'del', ns);
}

/** Cuts (down) or restores (up) a link on the namespace's side: packets are dropped, no connection is reset. */
function setLink(ns: string, nsSide: string, state: 'up' | 'down'): void {
  const done = ip('-n', ns, 'link', 'set', nsSide, state);
  if (!done.ok) throw new Error(done.err);
}

/** A redis-server behind a link the test can cut. */
export class PartitionedRedis {
  private child: ChildProcess | undefined;
  readonly port = 6379;

  private constructor(
    private readonly ns: string,
    private readonly hostSide: string,
    private readonly nsSide: string,
    readonly address: string,
  ) {}

  get url(): string {
    return `redis://${this.address}:${this.port}/0`;
  }

  /** Makes the namespace and the link (10.231.N.0/30), and starts Redis inside. */
  static async start(): Promise<PartitionedRedis> {
    const link = makeLink('pm');
    const r = new PartitionedRedis(link.ns, link.hostSide, link.nsSide, link.nsAddress);
    const child = spawn('ip', ['netns', 'exec', r.ns, REDIS ?? 'redis-server', ...redisArgs(r.port, r.address)], { stdio: ['ignore', 'pipe', 'pipe'] });
    r.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) in ${r.ns}: ${out.slice(-500)}`)));
    });
    return r;
  }

  /** Cuts the link on Redis's side: packets to and from it are dropped, no connection is reset. */
  cut(): void {
    setLink(this.ns, this.nsSide, 'down');
  }

  restore(): void {
    setLink(this.ns, this.nsSide, 'up');
  }

  private removeLink(): void {
    removeLink(this.ns, this.hostSide);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid as number, 'SIGKILL');
      await gone;
    }
    this.removeLink();
  }
}

/**
 * A Redis Cluster of six nodes (three primaries, three replicas) inside a namespace of the test's
 * own, cut from the mock as one: the nodes listen on an address of the namespace's loopback, so
 * the cluster's own traffic goes on while the link to the host is down (no failover), and the
 * host reaches them by a route through the link.
 */
export class PartitionedCluster {
  private constructor(
    private readonly link: Link,
    readonly address: string,
    readonly ports: number[],
    private readonly nodes: RedisProcess[],
    /** The nodes' folder: a node saves its cluster config there at every epoch change, and exits when it cannot. */
    private readonly dir: string,
  ) {}

  /** One node's URL: the mock finds the others. */
  get url(): string {
    return `redis://${this.address}:${this.ports[0]}/0`;
  }

  static async start(): Promise<PartitionedCluster> {
    const address = `10.234.${(process.pid % 100000) % 250}.1`;
    const link = makeLink('pc', (l) => [
      ['-n', l.ns, 'addr', 'add', `${address}/32`, 'dev', 'lo'],
      ['route', 'add', `${address}/32`, 'via', l.nsAddress, 'dev', l.hostSide],
    ]);
    const ports = [7001, 7002, 7003, 7004, 7005, 7006];
    const dir = mkdtempSync(join(tmpdir(), 'petstore-cut-cluster-'));
    const nodes = ports.map(
      (port) =>
        new RedisProcess(
          port,
          'ip',
          [
            'netns',
            'exec',
            link.ns,
            REDIS ?? 'redis-server',
            ...redisArgs(port, address),
            '--dir',
            dir,
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, `nodes-${port}.conf`),
            '--cluster-node-timeout',
            '1000',
            '--repl-diskless-sync',
            'yes',
            '--repl-diskless-sync-delay',
            '0',
          ],
          /Ready to accept connections/,
        ),
    );
    const cluster = new PartitionedCluster(link, address, ports, nodes, dir);
    try {
      await Promise.all(nodes.map((n) => n.launch()));
      // "Ready to accept connections" is printed inside the namespace: each node must answer from
      // the host, over the route through the link, before the cluster is made of them.
      for (const port of ports) await cluster.until(port, 'PING', 'PONG');
      const created = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `${address}:${p}`), '--cluster-replicas', '1', '--cluster-yes'], {
        encoding: 'utf8',
      });
      if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
      for (const port of ports) {
        await cluster.until(port, 'PING', 'PONG');
        await cluster.until(port, 'CLUSTER INFO', 'cluster_state:ok');
        await cluster.until(port, 'CLUSTER INFO', 'cluster_slots_ok:16384');
      }
      // What a replica does at its start: a Cluster client from the host, following the slots map
      // to every primary. It must succeed before any replica starts.
      await cluster.reachable();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  private async until(port: number, command: string, text: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!spawnSync('redis-cli', ['-h', this.address, '-p', String(port), ...command.split(' ')], { encoding: 'utf8' }).stdout.includes(text)) {
      if (Date.now() > deadline) throw new Error(`test Redis: ${text} not seen on ${this.address}:${port} within 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits until a Cluster client from the host connects and every primary it finds answers PING. */
  private async reachable(): Promise<void> {
    const deadline = Date.now() + 20_000;
    let last = '';
    for (;;) {
      const client = new Cluster([{ host: this.address, port: this.ports[0] as number }], { lazyConnect: true, clusterRetryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        const primaries = client.nodes('master');
        if (primaries.length === 3) {
          await Promise.all(primaries.map((node) => node.ping()));
          return;
        }
        last = `${primaries.length} primaries seen`;
      } catch (error) {
        last = (error as Error).message;
      } finally {
        client.disconnect();
      }
      if (Date.now() > deadline)
        throw new Error(`test Redis: the cluster at ${this.address}:${this.ports[0]} not reachable from the host within 20 s (${last})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  cut(): void {
    setLink(this.link.ns, this.link.nsSide, 'down');
  }

  restore(): void {
    setLink(this.link.ns, this.link.nsSide, 'up');
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.kill()));
    removeLink(this.link.ns, this.link.hostSide);
    // Only now: a node that loses its config file on a failover (one the load can bring about) exits.
    rmSync(this.dir, { recursive: true, force: true });
  }
}
