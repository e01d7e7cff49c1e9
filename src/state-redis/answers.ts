// The API script's answer (api-script.ts) made into one answer per decision: what a session's
// decisions share comes once per call (`cx`), so the script encodes less; here each decision gets it back.
import type { Decided } from './redis-plan.js';

/** What the API script answers for one decision: taken, or why it could not be. */
export type ScriptAnswer =
  ({ st: 'ok' } & Decided) | { st: 'stale'; set: string } | { st: 'unregistered' } | { st: 'error'; err: string } | { st: 'evict'; victim: string };

/** A call's answers, in the order of its decisions; `expired` when Redis started it past its deadline (it changed nothing). */
export interface CallAnswers {
  answers: ScriptAnswer[];
  expired: boolean;
  /** Redis's time during the call (ms), when it answered. */
  real: number | undefined;
}

type Shared = Pick<Decided, 'now' | 'details' | 'ep'>;
type Own = Omit<Decided, keyof Shared | 'real' | 'evicted'> & { x: number; evicted?: string };

/** Reads the script's answer; one that is not JSON of that shape holds no answers (each decision is refused by the caller). */
export function answersOf(raw: unknown): CallAnswers {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(raw));
  } catch {
    return { answers: [], expired: false, real: undefined };
  }
  if (typeof parsed !== 'object' || parsed === null) return { answers: [], expired: false, real: undefined };
  const call = parsed as { expired?: boolean; real?: string; cx?: Shared[] | Record<string, never>; o?: (Own | ScriptAnswer)[] | Record<string, never> };
  if (call.expired === true) return { answers: [], expired: true, real: undefined };
  // An empty Lua table is encoded as {}, not [].
  const shared = Array.isArray(call.cx) ? call.cx : [];
  const own = Array.isArray(call.o) ? call.o : [];
  const real = call.real ?? '';
  const answers = own.map((o): ScriptAnswer => {
    if ('st' in o) return o;
    const { x, evicted, ...rest } = o;
    const s = shared[x - 1];
    if (s === undefined) return { st: 'error', err: `the shared state's answer names session context ${x} of ${shared.length}` };
    return { st: 'ok', ...rest, now: s.now, details: s.details, ep: s.ep, real, evicted: evicted ?? '' };
  });
  return { answers, expired: false, real: call.real === undefined ? undefined : Number(call.real) };
}
