// A real Prometheus (Debian's prometheus package) for the dashboard tests: scrapes the given
// targets' /__admin/metrics every second, stores in a directory of its own, stopped by the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export const PROMETHEUS = '/usr/bin/prometheus';

/** One sample of an instant query's answer. */
export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** Polls `ready` (every 200 ms) until it holds; fails after `timeoutMs` saying `why`. */
export async function until(ready: () => Promise<boolean>, timeoutMs: number, why: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A Prometheus this test file owns. */
export class TestPrometheus {
  /** What Prometheus wrote on stderr (warnings and errors only). */
  log = '';
  private child: ChildProcess | undefined;

  private constructor(
    readonly api: string,
    private readonly dir: string,
  ) {}

  /** Starts Prometheus scraping the mocks on these ports, and waits until it is ready. */
  static async start(ports: number[]): Promise<TestPrometheus> {
    if (!existsSync(PROMETHEUS)) throw new Error('this test needs Debian prometheus (scripts/ensure-system-packages.sh installs it)');
    // Prometheus takes no port 0.
    const port = await freePort();
    const prometheus = new TestPrometheus(`http://127.0.0.1:${port}`, mkdtempSync(join(tmpdir(), 'petstore-prometheus-')));
    const config = join(prometheus.dir, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'scrape_configs:',
        '  - job_name: petstore-mock',
        '    metrics_path: /__admin/metrics',
        '    static_configs:',
        `      - targets: [${ports.map((p) => `'127.0.0.1:${p}'`).join(', ')}]`,
        '',
      ].join('\n'),
    );
    const child = spawn(
      PROMETHEUS,
      [`--config.file=${config}`, `--storage.tsdb.path=${join(prometheus.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prometheus.child = child;
    child.stderr?.on('data', (d: Buffer) => (prometheus.log += d.toString()));
    await until(
      async () => (await fetch(`${prometheus.api}/-/ready`).catch(() => undefined))?.status === 200,
      60_000,
      () => `Prometheus did not start:\n${prometheus.log}`,
    );
    return prometheus;
  }

  async query(promql: string): Promise<Sample[]> {
    const res = await fetch(`${this.api}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; error?: string; data: { resultType: string; result: Sample[] } };
    if (body.status !== 'success') throw new Error(`${promql}: ${body.error ?? res.status}`);
    return body.data.result;
  }

  /** The value of a query that yields one sample, or undefined while it yields none. */
  async single(promql: string): Promise<number | undefined> {
    const result = await this.query(promql);
    return result.length === 0 ? undefined : Number(result[0]?.value[1]);
  }

  /** Stops Prometheus (SIGTERM, waiting for its exit) and removes its data. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
