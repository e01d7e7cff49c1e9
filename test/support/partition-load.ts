// The load a partition test puts through replicas while it cuts their link to Redis: creates at a
// steady pace from two workers per replica, every answer kept, and the checks every partition
// must pass (test/redis/partition.test.ts on one Redis, cluster-partition.test.ts on a Cluster).
import { expect } from 'vitest';
import type { SharedRunningMock } from '../../src/index.js';

/** One create as its sender saw it. */
export interface Answer {
  replica: number;
  sentAt: number;
  ms: number;
  status: number;
  code?: string;
  message?: string;
  retryAfter: string | null;
  id?: number;
}

/** What a run of cuts gave: every answer, each cut's span, and each replica's recovery after each cut (ms). */
export interface CutRun {
  answers: Answer[];
  workers: number;
  cuts: { from: number; to: number }[];
  recovery: number[];
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends creates through the replicas while the link is cut for each of `lengthsMs` (real time: the
 * point is what TCP and the client do over it), a second of steady load before each cut so that it
 * finds calls in flight, and waits after each until every replica answered 201 again.
 */
export async function cutUnderLoad(mocks: SharedRunningMock[], link: { cut(): void; restore(): void }, lengthsMs: number[]): Promise<CutRun> {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const worker = async (replica: number): Promise<void> => {
    const mock = mocks[replica] as SharedRunningMock;
    while (running) {
      const sentAt = performance.now();
      const res = await fetch(`${mock.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `p${++n}`, categoryId: 1 }),
      });
      const body = (await res.json()) as { id?: number; code?: string; message?: string };
      answers.push({
        replica,
        sentAt,
        ms: performance.now() - sentAt,
        status: res.status,
        code: body.code,
        message: body.message,
        retryAfter: res.headers.get('retry-after'),
        id: body.id,
      });
      // A steady pace, not a wait for anything: the load goes on through the cut.
      await pause(20);
    }
  };
  /**
   * Resolves once every replica answered 201 to a create sent after `since`; gives when each did.
   * Past 20 s (the check allows 3) it fails with what the replicas that did not recover answered,
   * rather than wait out the test's time and say nothing of why.
   */
  const recovered = async (since: number): Promise<number[]> => {
    for (;;) {
      const firsts = mocks.map((_, replica) => answers.find((a) => a.replica === replica && a.sentAt >= since && a.status === 201));
      if (firsts.every((a) => a !== undefined)) return firsts.map((a) => (a as Answer).sentAt + (a as Answer).ms - since);
      if (performance.now() - since > 20_000) {
        const stuck = firsts.flatMap((a, replica) => (a === undefined ? [replica] : []));
        const last = stuck.map((replica) => {
          const mine = answers.filter((a) => a.replica === replica && a.sentAt >= since);
          const shown = mine.slice(-3).map((a) => `${a.status} ${a.code ?? ''} ${a.message ?? ''} (${Math.round(a.ms)} ms)`);
          return `replica ${replica}: ${mine.length} answers since, the last ${shown.join('; ')}`;
        });
        throw new Error(`no 201 within 20 s from ${last.join(' | ')}`);
      }
      await pause(50);
    }
  };
  // A worker's failure (a replica closed under it) is the run's, raised once the workers are awaited.
  const workers = mocks.flatMap((_, replica) => [worker(replica), worker(replica)]);
  for (const w of workers) w.catch(() => undefined);
  const recovery: number[] = [];
  const cuts: { from: number; to: number }[] = [];
  try {
    await recovered(performance.now());
    for (const lengthMs of lengthsMs) {
      await pause(1000);
      const from = performance.now();
      link.cut();
      await pause(lengthMs);
      link.restore();
      const to = performance.now();
      cuts.push({ from, to });
      recovery.push(...(await recovered(to)));
    }
    await pause(1000);
  } finally {
    link.restore();
    running = false;
    await Promise.all(workers);
  }
  return { answers, workers: workers.length, cuts, recovery };
}

/**
 * Every answer a 201 or the 503 of an unavailable state with Retry-After, none held past twice the
 * command timeout; each cut felt; a timeout at most once per worker and cut (the timed-out
 * connection is dropped, so the requests after it are told at once); each recovery within 3 s; no
 * id twice; and the store (`stored`, the ids Redis holds) every create answered 201 and nothing
 * else, but for the one case docs/scale-out.md names: a call Redis had started when the link went
 * down, whose answer the cut held back, is stored and was answered 503 after the command timeout.
 * So a stored id no 201 gave needs a create of its own, answered that way and in flight at a cut.
 */
export function expectNothingLost({ answers, workers, cuts, recovery }: CutRun, stored: number[], commandTimeoutMs: number): void {
  for (const a of answers) {
    expect([201, 503]).toContain(a.status);
    if (a.status === 503) {
      expect(a.code).toBe('state_unavailable');
      expect(a.retryAfter).toBe('1');
    }
    expect(a.ms).toBeLessThanOrEqual(2 * commandTimeoutMs + 300);
  }
  for (const { from, to } of cuts) expect(answers.some((a) => a.sentAt > from && a.sentAt < to && a.status === 503)).toBe(true);
  expect(answers.filter((a) => /command timeout/.test(a.message ?? '')).length).toBeLessThanOrEqual(workers * cuts.length);
  for (const ms of recovery) expect(ms).toBeLessThanOrEqual(3000);
  const answered = answers.filter((a) => a.status === 201).map((a) => a.id as number);
  expect(new Set(answered).size).toBe(answered.length);
  expect(new Set(stored).size).toBe(stored.length);
  const held = new Set(stored);
  expect(answered.filter((id) => !held.has(id))).toEqual([]);
  const unanswered = stored.filter((id) => !answered.includes(id));
  expect(unanswered.length, `stored without a 201: ${unanswered.join(', ')}`).toBeLessThanOrEqual(heldBackByACut({ answers, cuts }).length);
}

/** The creates answered 503 after the command timeout that were in flight when a cut began. */
export function heldBackByACut({ answers, cuts }: Pick<CutRun, 'answers' | 'cuts'>): Answer[] {
  return answers.filter(
    (a) => a.status === 503 && /command timeout/.test(a.message ?? '') && cuts.some(({ from }) => a.sentAt <= from && a.sentAt + a.ms >= from),
  );
}

/** One line of figures for the test's output (docs/scale-out.md quotes them). */
export function summary(name: string, { answers, recovery }: CutRun): string {
  const ok = answers.filter((a) => a.status === 201).length;
  const timeouts = answers.filter((a) => /command timeout/.test(a.message ?? '')).length;
  return (
    `${name}: ${answers.length} creates, ${ok} answered 201, ${answers.length - ok} answered 503 (${timeouts} after the command timeout); ` +
    `longest answer ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms; recovery after the link's return ${recovery.map((ms) => Math.round(ms)).join(', ')} ms`
  );
}
