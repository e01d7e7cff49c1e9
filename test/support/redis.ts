// A real redis-server for the shared-state tests: started on a free port with persistence off,
// stopped by its PID. Where Debian's redis-server is missing (and the pretest could not install
// it), the Redis tests are skipped with the reason printed; in CI they must run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './ports.js';

const BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

/** Whether the Redis tests can run here; prints why not. In CI a missing redis-server fails the run. */
export function redisAvailable(): boolean {
  if (BINARY) return true;
  if (process.env.CI === 'true')
    throw new Error("petstore-mock tests: CI must run the Redis tests, and redis-server is missing; install Debian's redis-server.");
  console.warn(
    "petstore-mock tests: skipping the shared-state (Redis) tests: redis-server is not installed; install it with 'sudo apt-get install redis-server' to run them.",
  );
  return false;
}

/** A redis-server this test file owns. */
export class TestRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  get pid(): number {
    return this.child?.pid ?? -1;
  }

  /** A server on a free port, or on `port` (one the test held until now). */
  static async start(port?: number): Promise<TestRedis> {
    const redis = new TestRedis(port ?? (await freePort()));
    await redis.launch();
    return redis;
  }

  /** Starts (or restarts) the server on its port, empty. */
  async launch(): Promise<void> {
    const child = spawn(
      BINARY ?? 'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${out.slice(-500)}`)));
    });
  }

  /** A redis-cli command against this server, for the tests' own looks at the keys. */
  cli(...args: string[]): string {
    const result = spawnSync('redis-cli', ['-p', String(this.port), ...args], { encoding: 'utf8' });
    return result.stdout.trim();
  }

  /** Kills the server (SIGKILL) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid as number, 'SIGKILL');
    await gone;
  }

  pause(): void {
    process.kill(this.pid, 'SIGSTOP');
  }

  resume(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      try {
        process.kill(this.pid, 'SIGCONT');
      } catch {
        // already gone
      }
    }
    await this.kill();
  }
}
