import type { CoreRequest } from '../types.js';
import type { ForcedAnswer, OperationId, ScenarioRuntime } from '../state/session-state.js';
import type { CompiledAnswer, CompiledMatch, RuntimePosition, RuntimeSpec } from './runtime-spec.js';
import { curveDraw, type ProfileLatency } from './profile.js';

export type { CompiledAnswer, CompiledMatch, RuntimePosition, RuntimeSpec } from './runtime-spec.js';

/**
 * A small seeded generator (mulberry32): the same seed gives the same sequence on every platform.
 * Its whole position is one 32-bit state, which a snapshot keeps to carry a sequence on part-way.
 */
export class SeededRandom {
  state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** `SeededRandom` as a function of no arguments. */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}

/** Whether a step's or the chaos's match takes this request (`key` is the valid key it sent, if any). */
export function matches(match: CompiledMatch, operation: OperationId, req: CoreRequest, key: string | undefined): boolean {
  if (!match.operations.has(operation)) return false;
  // HEAD is GET without a body, so a GET step takes HEAD requests too.
  if (match.method !== undefined && match.method !== req.method && !(match.method === 'GET' && req.method === 'HEAD')) return false;
  if (match.path !== undefined && !match.path.test(req.path)) return false;
  if (match.key !== undefined && match.key !== key) return false;
  if (match.headers !== undefined) {
    for (const [name, value] of match.headers) {
      const sent = req.headers[name];
      if (Array.isArray(sent) ? !sent.includes(value) : sent !== value) return false;
    }
  }
  return true;
}

/**
 * The state of one session's scenario: which step is next and how far the seeded sequences of the
 * chaos and the latency have gone. A reset makes a new one, so a replay starts from the top.
 */
export class ScriptedRuntime implements ScenarioRuntime {
  private step = 0;
  private takenByStep = 0;
  private readonly chaosRandom: SeededRandom;
  private readonly latencyRandom: SeededRandom;

  /** A runtime at the start of `spec`, or at `position` (one a snapshot kept). */
  constructor(
    private readonly spec: RuntimeSpec,
    position?: RuntimePosition,
  ) {
    this.chaosRandom = new SeededRandom(spec.chaos?.seed ?? 0);
    this.latencyRandom = new SeededRandom(spec.latency?.seed ?? 0);
    if (position) {
      this.step = position.step;
      this.takenByStep = position.taken;
      this.chaosRandom.state = position.chaosState >>> 0;
      this.latencyRandom.state = position.latencyState >>> 0;
    }
  }

  position(): RuntimePosition {
    return { step: this.step, taken: this.takenByStep, chaosState: this.chaosRandom.state, latencyState: this.latencyRandom.state };
  }

  intercept(operation: OperationId, req: CoreRequest, key: string | undefined): ForcedAnswer | undefined {
    const { steps } = this.spec;
    const current = steps[this.step];
    if (current && matches(current.match, operation, req, key)) {
      const index = this.step;
      const nth = ++this.takenByStep;
      if (this.takenByStep >= current.times) {
        this.takenByStep = 0;
        this.step++;
        if (this.step === steps.length && this.spec.repeat) this.step = 0;
      }
      return forceAnswer(this.spec.scenario, current.answer, stepName(index, nth, current.times));
    }
    const chaos = this.spec.chaos;
    if (chaos && matches(chaos.match, operation, req, key)) return chaosAnswer(this.spec, this.chaosRandom.next());
    return undefined;
  }

  latency(operation?: string): number {
    const latency = this.spec.latency;
    if (!latency || latency.maxMs === latency.minMs) return latency?.minMs ?? 0;
    return latencyOfDraw(latency, this.latencyRandom.next(), operation);
  }
}

/** The chaos's answer for a draw in [0, 1), by each answer's probability in order: a home of state draws, this decides. */
export function chaosAnswer(spec: RuntimeSpec, draw: number): ForcedAnswer | undefined {
  let left = draw;
  for (const { probability, answer } of spec.chaos?.answers ?? []) {
    if (left < probability) return forceAnswer(spec.scenario, answer, 'chaos');
    left -= probability;
  }
  return undefined;
}

/**
 * A latency between its bounds for a draw in [0, 1), whole milliseconds, both bounds included; with
 * a profile's curves, the operation's curve at the draw.
 */
export function latencyOfDraw(latency: { minMs: number; maxMs: number; curves?: ProfileLatency }, draw: number, operation?: string): number {
  if (latency.curves) return curveDraw((operation === undefined ? undefined : latency.curves.byOperation[operation]) ?? latency.curves.other, draw);
  return latency.minMs + Math.floor(draw * (latency.maxMs - latency.minMs + 1));
}

/** The answer a step or the chaos forces ("scenario flaky, step 2"), or undefined for a normal one. */
export function forceAnswer(scenario: string, answer: CompiledAnswer, where: string): ForcedAnswer | undefined {
  const reason = `scenario ${scenario}, ${where}`;
  switch (answer.kind) {
    case 'normal':
      return undefined;
    case 'success': {
      const forced: ForcedAnswer = { status: answer.status, reason: `${reason}: forced ${answer.status}` };
      if (answer.body !== undefined) forced.body = answer.body;
      if (answer.location !== undefined) forced.location = answer.location;
      return forced;
    }
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

/** How the journal names a step: "step 2", "step 2 (1 of 3)", "step 2 (4, forever)". */
export function stepName(index: number, nth: number, times: number): string {
  if (times === Infinity) return `step ${index + 1} (${nth}, forever)`;
  return times > 1 ? `step ${index + 1} (${nth} of ${times})` : `step ${index + 1}`;
}
