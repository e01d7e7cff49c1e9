// A redis-server in a network namespace of the test's own, reached over a veth pair whose link
// the test cuts and restores (`ip link set … down/up`): a real partition between the mock and
// Redis, packets dropped in the kernel, TCP left to its own retries. Needs root (CI runs as
// root); elsewhere the tests that use it are skipped and say why.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

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
    const id = process.pid % 100000;
    const net = `10.231.${id % 250}`;
    const r = new PartitionedRedis(`pm${id}`, `pmh${id}`, `pmn${id}`, `${net}.2`);
    const steps: string[][] = [
      ['netns', 'add', r.ns],
      ['link', 'add', r.hostSide, 'type', 'veth', 'peer', 'name', r.nsSide],
      ['link', 'set', r.nsSide, 'netns', r.ns],
      ['addr', 'add', `${net}.1/30`, 'dev', r.hostSide],
      ['link', 'set', r.hostSide, 'up'],
      ['-n', r.ns, 'addr', 'add', `${net}.2/30`, 'dev', r.nsSide],
      ['-n', r.ns, 'link', 'set', r.nsSide, 'up'],
      ['-n', r.ns, 'link', 'set', 'lo', 'up'],
    ];
    for (const step of steps) {
      const done = ip(...step);
      if (!done.ok) {
        r.removeLink();
        throw new Error(`ip ${step.join(' ')}: ${done.err}`);
      }
    }
    const child = spawn(
      'ip',
      [
        'netns',
        'exec',
        r.ns,
        REDIS ?? 'redis-server',
        '--port',
        String(r.port),
        '--bind',
        r.address,
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
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
    const done = ip('-n', this.ns, 'link', 'set', this.nsSide, 'down');
    if (!done.ok) throw new Error(done.err);
  }

  restore(): void {
    const done = ip('-n', this.ns, 'link', 'set', this.nsSide, 'up');
    if (!done.ok) throw new Error(done.err);
  }

  private removeLink(): void {
    ip('link', 'del', this.hostSide);
    ip('netns', 'del', this.ns);
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
