// Snapshots across processes: a session taken in one mock is restored by another process with
// `--import` (or PETSTORE_MOCK_IMPORT), which answers byte for byte as the source does; a stopped
// server writes its snapshot with `--export-on-exit`, whole.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall } from '../support/admin.js';
import { T0 } from '../support/mock.js';
import { action, comparableJournal, play, scenarioFile, seenOf, type Action, type Target } from '../property/snapshot-history.js';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';
import { cliLauncher, run, waitFor, type CliRun } from './cli.js';

const cli = cliLauncher('--port', '0', '--ready-json');
const dir = mkdtempSync(join(tmpdir(), 'cli-snapshot-'));
const FILE = scenarioFile();

let source: RunningMock | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

async function ready(r: CliRun): Promise<string> {
  const [line] = await waitFor(r, /^\{.*\}\n/);
  return (JSON.parse(line) as { origin: string }).origin;
}

/** A target over HTTP on the default session; the clock is the source's library handle (the CLI's is never moved). */
function over(origin: string, mock?: RunningMock): Target {
  return {
    send: async (method, path, headers, body) => seenOf(await fetch(`${origin}${path}`, { method, headers, body })),
    clock: mock?.clock ?? { advance: () => undefined, freeze: () => undefined, unfreeze: () => undefined },
    recordDetails: (on) => mock?.recordDetails(on),
    moveReal: () => undefined,
    ...snapshotsOver(origin),
  };
}

/** A session's snapshot taken and restored over the admin API. */
function snapshotsOver(origin: string, session?: string): Pick<Target, 'snapshot' | 'restore'> {
  return {
    snapshot: async () => (await adminCall<SnapshotDocument>(origin, 'snapshot', { session })).json,
    restore: async (doc) => {
      const reply = await adminCall(origin, 'snapshot', { method: 'PUT', body: doc, session });
      if (reply.status !== 200) throw new Error(`the restore answered ${reply.status}: ${JSON.stringify(reply.json)}`);
    },
  };
}

const HISTORY: Action[] = [
  { op: 'details', on: true },
  { op: 'create', key: 'demo-pro', name: 'Rex', categoryId: '9223372036854775807', status: 'sold' },
  { op: 'create', key: 'demo-pro', name: 'Tom', categoryId: '3' },
  { op: 'list', key: 'demo-pro', limit: 60 },
  { op: 'spam', key: 'tiny', n: 6 },
  { op: 'advance', ms: 61_000 },
  { op: 'spam', key: 'tiny', n: 14 },
  { op: 'spam', key: null, n: 3 },
];

const NEXT: Action[] = [
  { op: 'spam', key: 'tiny', n: 2 },
  { op: 'create', key: 'demo-pro', name: 'Third', categoryId: '4' },
  { op: 'create', key: 'demo-pro', name: 'Fourth', categoryId: '5' },
  { op: 'list', key: 'demo-pro', limit: 100 },
  { op: 'list', key: 'demo-free', limit: 3, status: 'sold' },
  { op: 'get', key: 'demo-pro', id: 51 },
  { op: 'spam', key: null, n: 2 },
];

/** A source mock on a frozen clock taken through HISTORY, and its snapshot written to a file. */
async function prepared(frozen: boolean): Promise<{ mock: RunningMock; file: string }> {
  const mock = await startMock({ scenario: FILE });
  source = mock;
  mock.clock.set(T0);
  if (frozen) mock.clock.freeze();
  await play(over(mock.origin, mock), HISTORY);
  const file = join(dir, `source-${frozen ? 'frozen' : 'running'}.json`);
  const { status, json } = await adminCall(mock.origin, 'snapshot');
  expect(status).toBe(200);
  writeFileSync(file, JSON.stringify(json));
  return { mock, file };
}

describe('--import', () => {
  it('another process started from a snapshot answers byte for byte as the source, headers included', async () => {
    const { mock, file } = await prepared(true);
    const origin = await ready(cli('--import', file));
    const expected = await play(over(mock.origin), NEXT);
    expect(expected.some((s) => s.body.includes('key_banned'))).toBe(true);
    expect(await play(over(origin), NEXT)).toEqual(expected);
    // Each process records its own wall times (how long the core took, when a request arrived and
    // waited, the real time of a frozen clock's request), its own connections (numbered per
    // process, and the source's had carried HISTORY before NEXT; the imported process's are new)
    // and its own salt of key ids (which entries share a key is compared).
    const journal = async (o: string): Promise<unknown> =>
      comparableJournal(
        ((await adminCall<{ durationMs: number; realAt?: string; connection?: number; connectionUse?: number }[]>(o, 'requests')).json ?? []).map(
          ({ realAt: _r, connection: _n, connectionUse: _c, ...e }) => e,
        ),
      );
    expect(await journal(origin)).toEqual(await journal(mock.origin));
  });

  it('PETSTORE_MOCK_IMPORT does the same; a running clock resumes from the instant of the snapshot', async () => {
    const { file } = await prepared(false);
    const r = run(process.execPath, ['dist/cli.js', '--port', '0', '--ready-json'], { env: { PETSTORE_MOCK_IMPORT: file } });
    try {
      const origin = await ready(r);
      const clock = (await adminCall<{ now: string; frozen: boolean }>(origin, 'clock')).json;
      expect(clock.frozen).toBe(false);
      // Real time ran on while the file waited; the session's clock did not.
      expect(Date.parse(clock.now) - T0).toBeGreaterThanOrEqual(61_000);
      expect(Date.parse(clock.now) - T0).toBeLessThan(61_000 + 60_000);
      // What the running clock decides: the ban still runs, the scenario's next create is its third.
      const [banned] = await play(over(origin), [{ op: 'spam', key: 'tiny', n: 1 }]);
      expect(banned?.body).toContain('key_banned');
      const [third, fourth] = await play(over(origin), NEXT.slice(1, 3));
      expect([third?.status, fourth?.status]).toEqual([503, 201]);
    } finally {
      r.child.kill('SIGKILL');
    }
  });

  it('a wrong file stops the start with one line naming the file and the field', async () => {
    const file = join(dir, 'wrong.json');
    writeFileSync(file, JSON.stringify({ format: 'petstore-mock/snapshot', version: 1, scenario: {} }));
    const r = cli('--import', file);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toMatch(
      /^petstore-mock: cannot import the snapshot file .*wrong\.json: the snapshot is not valid at \/scenario\/name: scenario needs the key "name"; .*\n$/,
    );
  });
});

/** A session of a mock over HTTP alone, its clock moved by the admin API (any process). */
function session(origin: string, id: string): Target {
  const clock = (change: object): Promise<unknown> => adminCall(origin, 'clock', { body: change, session: id });
  return {
    send: async (method, path, headers, body) => seenOf(await fetch(`${origin}${path}`, { method, headers: { ...headers, 'x-mock-session': id }, body })),
    clock: { advance: (ms) => clock({ advance: `${ms}ms` }), freeze: () => clock({ frozen: true }), unfreeze: () => clock({ frozen: false }) },
    recordDetails: (on) => adminCall(origin, 'journal', { method: 'PUT', body: { details: on }, session: id }),
    moveReal: () => undefined,
    ...snapshotsOver(origin, id),
  };
}

describe('generated histories restored in another process', () => {
  it('answer byte for byte as their source, on a frozen clock', async () => {
    const mock = await startMock({ scenario: FILE });
    source = mock;
    // One other process for every history: each is restored into a session of its own there.
    const origin = await ready(cli());
    // Real time differs between two processes: the clock stays frozen, as a bug report's would.
    const frozen = action.filter((a) => a.op !== 'unfreeze' && a.op !== 'real');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frozen, { maxLength: 30 }), fc.array(frozen, { minLength: 1, maxLength: 12 }), async (history, next) => {
        const id = `run-${++run}`;
        mock.session(id).clock.freeze();
        mock.session(id).clock.set(T0 + 30_000);
        await play(session(mock.origin, id), history);
        const doc = await fetch(`${mock.origin}/__admin/snapshot?session=${id}`).then((r) => r.text());
        const restored = await fetch(`${origin}/__admin/snapshot?session=${id}`, { method: 'PUT', body: doc });
        expect(restored.status).toBe(200);
        expect(await play(session(origin, id), next)).toEqual(await play(session(mock.origin, id), next));
      }),
      { numRuns: 12 },
    );
  });
});

describe('--export-on-exit', () => {
  it.each([['SIGTERM'], ['SIGINT']] as const)('on %s writes the snapshot as the session stood, atomically', async (signal) => {
    const out = join(dir, `exported-${signal}.json`);
    const r = cli('--scenario', FILE, '--export-on-exit', out);
    const origin = await ready(r);
    await adminCall(origin, 'clock', { body: { set: new Date(T0).toISOString(), frozen: true } });
    await play(over(origin), HISTORY.slice(1, 5));
    const before = (await adminCall<Record<string, unknown>>(origin, 'snapshot')).json;
    r.child.kill(signal);
    expect(await r.exited).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect({ ...written, takenAt: '' }).toEqual({ ...before, takenAt: '' });
    // No temporary file is left beside it.
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
