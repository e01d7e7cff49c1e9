// The one forwarder of the session operations: what the in-memory admin and a shared mock not yet
// connected answer through.
import { describe, expect, it } from 'vitest';
import { forwardedOps, offeredOps, type SessionOps } from '../../src/core/state/session-ops.js';
import { MockError } from '../../src/core/errors.js';

const clockState = { now: '2030-01-01T00:00:00.000Z', frozen: true };

/** Operations answering at once, as the in-memory home's do, each recording its call. */
function syncOps(calls: unknown[][]): SessionOps<false> {
  return {
    reset: (session) => (calls.push(['reset', session]), { session: session ?? 'default', scenario: 'default', clock: clockState }),
    useScenario: (name, session, byName) => (calls.push(['useScenario', name, session, byName]), { name, session: session ?? 'default', clock: clockState }),
    clock: (session) => (calls.push(['clock', session]), clockState),
    changeClock: (session, change) => (calls.push(['changeClock', session, change]), clockState),
    requests: (session, details) => (calls.push(['requests', session, details]), []),
    recordDetails: (session, on) => (
      calls.push(['recordDetails', session, on]),
      { session: session ?? 'default', details: on, entries: 0, capacity: 1, total: 0 }
    ),
    removalAt: (session) => (calls.push(['removalAt', session]), 1),
  } as SessionOps<false>;
}

describe('forwardedOps', () => {
  it('answers each operation with a promise of what the source answers, with the arguments given', async () => {
    const calls: unknown[][] = [];
    const ops = forwardedOps(() => syncOps(calls));
    const answer = ops.useScenario('ban', 's1', false);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toEqual({ name: 'ban', session: 's1', clock: clockState });
    await expect(ops.changeClock('s2', { advance: 1000 })).resolves.toEqual(clockState);
    await expect(ops.removalAt(undefined)).resolves.toBe(1);
    expect(calls).toEqual([
      ['useScenario', 'ban', 's1', false],
      ['changeClock', 's2', { advance: 1000 }],
      ['removalAt', undefined],
    ]);
  });

  it('asks the source at each call, so a state opened later is the one asked', async () => {
    const calls: unknown[][] = [];
    let opened: SessionOps<false> | undefined;
    const ops = forwardedOps(async () => (opened ??= syncOps(calls)));
    expect(opened).toBeUndefined();
    await ops.clock('s');
    expect(opened).toBeDefined();
    expect(calls).toEqual([['clock', 's']]);
  });

  it('offers only the operations named; offeredOps names those an object has', () => {
    const source = syncOps([]);
    const names = offeredOps(source);
    expect(names).toEqual(['reset', 'useScenario', 'clock', 'changeClock', 'requests', 'recordDetails', 'removalAt']);
    const ops = forwardedOps(() => source, names);
    expect(ops.snapshot).toBeUndefined();
    expect(ops.restore).toBeUndefined();
    expect(Object.keys(ops)).toEqual(names);
  });

  it('refuses, as a bug of the mock, an operation named but missing from the source', async () => {
    const ops = forwardedOps(() => syncOps([]), ['snapshot']);
    const failure = ops.snapshot?.('s');
    await expect(failure).rejects.toBeInstanceOf(MockError);
    await expect(failure).rejects.toMatchObject({ code: 'internal_error' });
  });
});
