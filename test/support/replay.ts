import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { startMock, type MockOptions, type RunningMock } from '../../src/index.js';

/** A stand-in for the wall clock that only moves when a test moves it. */
export interface FakeTime {
  ms: number;
  now: () => number;
}

export function fakeTime(start: number): FakeTime {
  const time: FakeTime = { ms: start, now: () => time.ms };
  return time;
}

const started: RunningMock[] = [];
afterAll(async () => {
  await Promise.all(started.splice(0).map((m) => m.close()));
});

/** Starts a mock on port 0 whose real time is `time`; closed after the file's tests. */
export async function startWithTime(time: FakeTime, options: MockOptions = {}): Promise<RunningMock> {
  const mock = await startMock({ port: 0, now: time.now, ...options });
  started.push(mock);
  return mock;
}

/** Writes a scenario file into a fresh temporary folder and returns its path. */
export function writeScenario(fileName: string, lines: readonly string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-scenario-')), fileName);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
