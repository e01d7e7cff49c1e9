// After --import, what the CLI prints (the ready line, --ready-json, the banner) is what the
// default session enforces: the snapshot's keys, limits and scenario. Flags that would contradict
// the snapshot are refused with one line saying which wins and how to choose.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { cliLauncher, waitFor } from './cli.js';

const cli = cliLauncher('--port', '0');
const dir = mkdtempSync(join(tmpdir(), 'cli-import-print-'));
const FILE = join(dir, 'state.json');

let source: RunningMock;
beforeAll(async () => {
  // A session under the ban scenario (Free: 5/min) with a custom key of its own.
  source = await startMock({ port: 0, keys: ['ci-secret-0001:pro:7:70'] });
  source.useScenario('ban');
  writeFileSync(FILE, JSON.stringify(source.snapshot()));
});
afterAll(async () => {
  await source?.close();
});

interface ReadyKey {
  key: string;
  plan: string;
  perMinute?: number;
  perDay?: number;
}

describe('--import: what is printed is what the session enforces', () => {
  it("--ready-json names the snapshot's keys, limits and scenario, and the API enforces exactly those", async () => {
    const r = cli('--import', FILE, '--ready-json');
    const [line] = await waitFor(r, /^\{.*\}\n/);
    const ready = JSON.parse(line) as { url: string; keys: ReadyKey[]; scenario: string };
    expect(ready.scenario).toBe('ban');
    const free = ready.keys.find((k) => k.key === 'demo-free');
    expect(free).toMatchObject({ plan: 'free', perMinute: 5, perDay: 100 });
    expect(ready.keys.find((k) => k.key === 'ci-secret-0001')).toMatchObject({ plan: 'pro', perMinute: 7, perDay: 70 });
    for (const k of ready.keys.filter((k) => !k.key.startsWith('demo-') || k.key === 'demo-free')) {
      const res = await fetch(`${ready.url}/pets?limit=1`, { headers: { authorization: `Bearer ${k.key}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(k.perMinute));
    }
  });

  it("the banner shows the snapshot's limits and scenario", async () => {
    const r = cli('--import', FILE);
    await waitFor(r, /^ {2}scenario +\S+\n/m);
    const banner = r.stdout();
    expect(banner).toContain('demo-free (free, 5/min, 100/day)');
    expect(banner).toContain('ci-s…001 (pro, 7/min, 70/day)');
    expect(banner).toMatch(/^ {2}scenario +ban\n/m);
    expect(banner).not.toContain('demo-free (free, 60/min');
  });

  it.each([
    ['--key', ['--key', 'ci:pro']],
    ['--scenario', ['--scenario', 'flaky']],
    ['--pets', ['--pets', '5']],
    ['--seed', ['--seed', '7']],
    ['--fixtures', ['--fixtures', FILE]],
  ])('%s with --import is refused with one line saying the snapshot wins and how to choose', async (flag, args) => {
    const r = cli('--import', FILE, ...args);
    expect(await r.exited).toBe(1);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe(
      `petstore-mock: --import restores the default session from the snapshot, whose keys, limits, scenario and store win; ${flag} would contradict it. Drop ${flag} (the snapshot's own are printed at start), or drop --import to start from ${flag}.\n`,
    );
  });
});
