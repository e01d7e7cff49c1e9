import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMock } from '../../src/index.js';
import type { ReloadReport } from '../../src/files/live-reload.js';
import { MAX_FIXTURES_FILE_BYTES, MAX_SCENARIO_FILE_BYTES } from '../../src/files/read-file.js';
import { call } from '../support/mock.js';

// Scenario files and fixtures that are not plain files of a sensible size: refused at once with
// one line (a FIFO used to hang start-up, and under --watch the server), never read whole.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** A file of `bytes` that takes no disk: only its size is ever looked at. */
function sparse(name: string, bytes: number): string {
  const path = join(dir, name);
  writeFileSync(path, '');
  truncateSync(path, bytes);
  return path;
}

describe('files that are not plain files, or too large', () => {
  it('a FIFO as the scenario file is refused at once, in one line', async () => {
    const file = fifo('held.yaml');
    await expect(startMock({ scenario: file })).rejects.toThrow(
      /^petstore-mock: cannot read the scenario file .*held\.yaml \(it is a FIFO \(named pipe\); petstore-mock reads only regular files\); check the path given to --scenario\.$/,
    );
  });

  it('a FIFO as the fixtures file is refused at once', async () => {
    const file = fifo('db.json');
    await expect(startMock({ fixtures: file })).rejects.toThrow(/db\.json \(it is a FIFO \(named pipe\); petstore-mock reads only regular files\)/);
  });

  it('a FIFO named as fixtures inside a scenario is refused at once, with the line', async () => {
    fifo('pets.json');
    const file = join(dir, 'with-fixtures.yaml');
    writeFileSync(file, 'description: fixtures from a pipe\ndata:\n  fixtures: pets.json\n');
    await expect(startMock({ scenario: file })).rejects.toThrow(/with-fixtures\.yaml:3:\d+: .*pets\.json \(it is a FIFO/);
  });

  it(`a scenario file over ${MAX_SCENARIO_FILE_BYTES / 1024 / 1024} MiB is refused by its size, unread`, async () => {
    const file = sparse('huge.yaml', 60 * 1024 * 1024);
    await expect(startMock({ scenario: file })).rejects.toThrow('(it is 60 MiB, more than the 1 MiB petstore-mock reads from such a file)');
  });

  it(`a fixtures file over ${MAX_FIXTURES_FILE_BYTES / 1024 / 1024} MiB is refused by its size, unread`, async () => {
    const file = sparse('db.json', 60 * 1024 * 1024);
    await expect(startMock({ fixtures: file })).rejects.toThrow('(it is 60 MiB, more than the 16 MiB petstore-mock reads from such a file)');
  });
});

describe('--watch with a FIFO or a huge file put in place of the scenario', () => {
  it.each([
    ['a FIFO renamed over it', (path: string): void => renameSync(fifo('incoming'), path), /it is a FIFO/],
    ['a 60 MiB file renamed over it', (path: string): void => renameSync(sparse('incoming', 60 * 1024 * 1024), path), /it is 60 MiB/],
  ])('%s: the reload says why in one line, and the server keeps answering', async (_what, replace, reason) => {
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, 'description: mine\n');
    const reports: ReloadReport[] = [];
    const mock = await startMock({ scenario: file, watch: true, onReload: (r) => reports.push(r) });
    try {
      replace(file);
      await vi.waitUntil(() => reports.length > 0, { timeout: 10_000, interval: 20 });
      expect(reports[0]?.errors.map((e) => e.message)).toEqual([expect.stringMatching(reason)]);
      expect(reports[0]?.errors[0]?.message).not.toContain('\n');
      expect((await call(mock, '/v1/pets/1')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
