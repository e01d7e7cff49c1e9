// A scenario as its file holds it, once it has passed `scenarios/scenario.schema.json`: the types
// the compiler reads (scenario-compiler.ts) and the files' readers check against.
import type { ConnectionFault, OperationId, OperationMethod, PlanName } from '../types.js';
import type { DeclaredOperationSpec } from './declared-operations.js';

/** A duration as scenario files write it: "90s", "1m30s", or milliseconds. */
export type DurationSpec = string | number;

export interface MatchSpec {
  operation?: OperationId;
  method?: OperationMethod | 'HEAD';
  path?: string;
  /** Only requests with this key (one the server has). */
  key?: string;
  /** Only requests with each of these headers at exactly this value (names in any case). */
  headers?: Record<string, string>;
}

/** A success is the matched operation's success status, with the body the document gives it or, where it gives none, without. */
export type AnswerSpec =
  | 'normal'
  | { status: number; code?: string; message?: string; retryAfter?: number }
  | { status: number; body?: unknown; code?: never; message?: never; retryAfter?: never }
  | { fault: ConnectionFault };

/** Where the store's animals come from. */
export interface DataSpec {
  seed?: number;
  count?: number;
  fixtures?: string;
  empty?: boolean;
}

/** Limits as a scenario writes them: every window (`limits: ["10/s", "600/m"]`), or the minute's and the day's over a plan's. */
export interface LimitsSpec {
  perMinute?: number;
  perDay?: number;
  limits?: string[];
}

/** Requests already made in a window, or "full": the window's limit. */
export type UsedSpec = number | 'full';

/** A usage line: a key ("*": every key), what it has used of each window it names, a ban in force. */
export interface UsageLineSpec {
  key: string;
  second?: UsedSpec;
  minute?: UsedSpec;
  hour?: UsedSpec;
  day?: UsedSpec;
  bannedFor?: DurationSpec;
}

/** A scenario as its file holds it, once it has passed `scenarios/scenario.schema.json`. */
export interface ScenarioSpec {
  $schema?: string;
  name?: string;
  description: string;
  data?: DataSpec;
  plans?: Partial<Record<PlanName, LimitsSpec>>;
  keys?: ({ key: string; plan?: PlanName; revoked?: boolean } & LimitsSpec)[];
  ban?: { after?: number; duration?: DurationSpec };
  usage?: UsageLineSpec[];
  clock?: { start?: string; frozen?: boolean };
  deprecation?: { deprecatedAt?: string; removalAt?: string };
  latency?: DurationSpec | { min: DurationSpec; max: DurationSpec; seed?: number };
  steps?: { match?: MatchSpec; times?: number | 'forever'; answer: AnswerSpec }[];
  repeat?: boolean;
  chaos?: { seed: number; match?: MatchSpec; answers: { probability: number; answer: AnswerSpec }[] };
  journal?: { size?: number; details?: boolean };
  /** A deployment's profile (`verify --profile`): the path of its file, or the document. */
  profile?: string | object;
  /** `http-date`: `Retry-After` as an IMF-fixdate (RFC 9110) instead of seconds. */
  retryAfterFormat?: 'seconds' | 'http-date';
  /** Operations the specification does not define, with their answers in order. */
  operations?: DeclaredOperationSpec[];
}
