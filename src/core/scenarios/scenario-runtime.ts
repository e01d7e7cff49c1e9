import type { ForcedAnswer, OperationId, ScenarioRuntime } from '../state/world.js';
import type { CompiledAnswer, CompiledMatch, RuntimeSpec } from './runtime-spec.js';

export type { CompiledAnswer, CompiledMatch, RuntimeSpec } from './runtime-spec.js';

/** A small seeded generator (mulberry32): the same seed gives the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whether a step's or the chaos's match takes this request. */
export function matches(match: CompiledMatch, operation: OperationId, method: string, path: string): boolean {
  if (!match.operations.has(operation)) return false;
  // HEAD is GET without a body, so a GET step takes HEAD requests too.
  if (match.method !== undefined && match.method !== method && !(match.method === 'GET' && method === 'HEAD')) return false;
  return match.path === undefined || match.path.test(path);
}

/**
 * The state of one session's scenario: which step is next and how far the seeded sequences of the
 * chaos and the latency have gone. A reset makes a new one, so a replay starts from the top.
 */
export class ScriptedRuntime implements ScenarioRuntime {
  private step = 0;
  private takenByStep = 0;
  private readonly chaosRandom: () => number;
  private readonly latencyRandom: () => number;

  constructor(private readonly spec: RuntimeSpec) {
    this.chaosRandom = seededRandom(spec.chaos?.seed ?? 0);
    this.latencyRandom = seededRandom(spec.latency?.seed ?? 0);
  }

  intercept(operation: OperationId, method: string, path: string): ForcedAnswer | undefined {
    const { steps } = this.spec;
    const current = steps[this.step];
    if (current && matches(current.match, operation, method, path)) {
      const index = this.step;
      const nth = ++this.takenByStep;
      if (this.takenByStep >= current.times) {
        this.takenByStep = 0;
        this.step++;
        if (this.step === steps.length && this.spec.repeat) this.step = 0;
      }
      const where = current.times > 1 ? `step ${index + 1} (${nth} of ${current.times})` : `step ${index + 1}`;
      return forceAnswer(this.spec.scenario, current.answer, where);
    }
    const chaos = this.spec.chaos;
    if (chaos && matches(chaos.match, operation, method, path)) {
      let draw = this.chaosRandom();
      for (const { probability, answer } of chaos.answers) {
        if (draw < probability) return forceAnswer(this.spec.scenario, answer, 'chaos');
        draw -= probability;
      }
    }
    return undefined;
  }

  latency(): number {
    const latency = this.spec.latency;
    if (!latency) return 0;
    if (latency.maxMs === latency.minMs) return latency.minMs;
    return latency.minMs + Math.floor(this.latencyRandom() * (latency.maxMs - latency.minMs + 1));
  }
}

/** The answer a step or the chaos forces ("scenario flaky, step 2"), or undefined for a normal one. */
export function forceAnswer(scenario: string, answer: CompiledAnswer, where: string): ForcedAnswer | undefined {
  const reason = `scenario ${scenario}, ${where}`;
  switch (answer.kind) {
    case 'normal':
      return undefined;
    case 'fault':
      return { status: 503, code: 'service_unavailable', fault: answer.fault, reason: `${reason}: connection ${answer.fault}` };
    case 'error': {
      const forced: ForcedAnswer = { status: answer.status, code: answer.code, reason: `${reason}: forced ${answer.status}` };
      if (answer.message !== undefined) forced.message = answer.message;
      if (answer.retryAfter !== undefined) forced.retryAfter = answer.retryAfter;
      return forced;
    }
  }
}
