// The compiled run-time part of a scenario, as plain data: the in-memory runtime steps through it,
// and a shared state keeps the positions in Redis instead. Apart from scenario-runtime.ts so that
// the settings can carry it without an import cycle.
import type { ErrorCode } from '../errors.js';
import type { ConnectionFault, OperationId } from '../types.js';
import type { ProfileLatency } from './profile.js';

/** Which requests a step or the chaos applies to, resolved against the API's operations. */
export interface CompiledMatch {
  operations: ReadonlySet<OperationId>;
  method?: string;
  path?: RegExp;
  key?: string;
  /** Lower-case header names and the exact values they must have. */
  headers?: readonly (readonly [string, string])[];
}

/** An answer of a step or of the chaos, checked against the catalogue and the document. */
export type CompiledAnswer =
  | { kind: 'normal' }
  | { kind: 'fault'; fault: ConnectionFault }
  | { kind: 'success'; status: number; body?: string; location?: string }
  | { kind: 'error'; status: number; code: ErrorCode; message?: string; retryAfter?: number };

/** A scenario's run-time part, as `compileScenario` builds it. */
export interface RuntimeSpec {
  scenario: string;
  /** `times` is Infinity for a step that answers forever. */
  steps: readonly { match: CompiledMatch; times: number; answer: CompiledAnswer }[];
  repeat: boolean;
  chaos?: { seed: number; match: CompiledMatch; answers: readonly { probability: number; answer: CompiledAnswer }[] };
  /** `curves` (a profile's) replace the uniform draw between the bounds with each operation's distribution. */
  latency?: { minMs: number; maxMs: number; seed: number; curves?: ProfileLatency };
}

/**
 * Where a session is in its scenario: the next step, how often that step has answered, and the
 * states of the chaos's and the latency's seeded sequences. Plain data, so a snapshot carries it.
 */
export interface RuntimePosition {
  step: number;
  taken: number;
  chaosState: number;
  latencyState: number;
}
