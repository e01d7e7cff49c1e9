// What the verify tests share: one mock for a file, a fresh session per run (its own store,
// counters and clock, frozen at T0), and the rule ids of a report by verdict.
import { afterAll, beforeAll } from 'vitest';
import { startMock, type RunningMock, type SessionHandle, type VerifyOptions, type VerifyReport } from '../../src/index.js';
import { T0 } from '../support/mock.js';

/** Keys with small custom limits, so that exhausting a quota takes a few requests. */
export const SMALL_KEYS = ['k5:pro:5:1000', 'k20:pro:20:1000', 'verify-secret-key-0123456789:pro'];

/** Starts one mock for the file on port 0 with the small keys; closes it after. */
export function useVerifyMock(): () => RunningMock {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, keys: SMALL_KEYS });
  });
  afterAll(async () => {
    await mock?.close();
  });
  return () => mock;
}

let sessions = 0;

/** A fresh session (under `scenario`, if given) with its clock frozen; the options that verify it. */
export function freshSession(mock: RunningMock, scenario?: string): { handle: SessionHandle; options: Pick<VerifyOptions, 'headers' | 'wait'>; id: string } {
  const id = `verify-${process.pid}-${++sessions}`;
  const handle = mock.session(id);
  if (scenario) handle.useScenario(scenario);
  handle.clock.freeze();
  // A scenario keeps its own start (and the window its usage fills); the others start at T0, a whole minute.
  if (!scenario) handle.clock.set(T0);
  return {
    id,
    handle,
    // Time is virtual: verify's wait for Retry-After advances the session's clock.
    options: { headers: { 'X-Mock-Session': id }, wait: async (seconds) => handle.clock.advance(seconds * 1000) },
  };
}

export const failedIds = (report: VerifyReport): string[] => report.rules.filter((r) => !r.ok && !r.skipped).map((r) => r.id);
export const skippedIds = (report: VerifyReport): string[] => report.rules.filter((r) => r.skipped).map((r) => r.id);
export const passedIds = (report: VerifyReport): string[] => report.rules.filter((r) => r.ok).map((r) => r.id);
