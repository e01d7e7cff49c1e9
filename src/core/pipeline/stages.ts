// The stages of the order of checks (core/check-order.ts, where the order is written once, with
// the steps a home decides). Each stage names its check for each moment it can be judged at: before
// the home of state is asked (`ahead`: no state needed), once the home decided (`decided`: the
// session's clock and counts), and from the head alone, before the body (`onHead`, for
// `Expect: 100-continue`). The pipeline and the path before the body walk this one list; the homes
// decide 'removal', 'limit' and 'scenario', and learn from the plan whether an earlier stage already
// failed (`StateAsk.enforce`).
import { bodySizeRefusedByHeaders, mediaTypeError, mediaTypeRefusedByHeaders, tooLargeError } from '../input/body.js';
import { MockError } from '../errors.js';
import { authenticate, type AuthResult } from './auth.js';
import { isPreflight } from './cors.js';
import { forcedOutcome, limitError, type Outcome } from './outcome.js';
import { deprecatedOperation } from './deprecation.js';
import { SPEC_OPERATIONS, tableOf, type Route } from './operations-table.js';
import { SPEC_MODULES } from '../operations/index.js';
import { keyBucket, type SessionState } from '../state/session-state.js';
import type { Decision, StateAsk } from '../state/state-port.js';
import type { BanCount } from '../state/limiter.js';
import type { CoreRequest } from '../types.js';
import { STAGE_ORDER, type StageName } from '../check-order.js';

/** A request's plan (plan.ts makes it): what the home is asked, and what the answer is built from. */
export interface Plan extends StateAsk {
  kind: 'fixed' | 'preflight' | 'document' | 'options' | 'api';
  where?: Route;
  auth?: AuthResult;
  /** The valid key, redacted, for the journal. */
  shownKey?: string;
  extraHeaders?: Record<string, string>;
  /** The first stage whose check without state failed, and its error (thrown in the stage's place). */
  failed?: StageName;
  failure?: unknown;
  allow?: string;
}

/**
 * What a check before the home returns when the plan is already the answer (a preflight, the
 * document, OPTIONS); otherwise it returns undefined, or the error its stage answers with.
 */
export const ANSWERED = 'answered';

/** What the path before the body knows of a request so far; each stage adds what it found. */
export interface HeadInput {
  state: SessionState;
  req: CoreRequest;
  now: number;
  where?: Route;
  auth?: AuthResult;
}

/** One stage of the order of checks. */
export interface Stage {
  name: StageName;
  /** Whether judging it needs the body: the path before the body stops at the first such stage. */
  needsBody: boolean;
  /** The check without state, run while the plan is made; it may fill the plan (the parsed input). */
  ahead?: (plan: Plan, req: CoreRequest) => unknown;
  /** Whether the home must decide this stage for this plan (it needs the session's state). */
  byHome?: (plan: Plan) => boolean;
  /**
   * The check on what the home decided: the error its stage answers with, or the answer itself when
   * the stage decides it (a scenario's forced answer). A refused key's ban count goes into the
   * answer's `ban`, for the journal.
   */
  decided?: (d: Decision<unknown, Plan>, answer: { ban?: BanCount }) => MockError | Outcome | undefined;
  /** Whether the head alone settles the answer at this stage (a refusal, or no body to wait for). */
  onHead?: (h: HeadInput) => boolean;
}

/** Whether the route's operation of the specification reads a body (creating an animal does). */
const readsBody = (where: Route | undefined): boolean => where?.kind === 'operation' && SPEC_MODULES[where.operation].readsBody;

/**
 * A stage with every member present, in one order: the walks then read every stage through one
 * shape, which V8 keeps monomorphic (stages of differing shapes cost the list about 0.3 µs a request).
 */
function stage(s: Pick<Stage, 'name' | 'needsBody'> & Partial<Stage>): Stage {
  return { name: s.name, needsBody: s.needsBody, ahead: s.ahead, byHome: s.byHome, decided: s.decided, onHead: s.onHead };
}

/** What each stage checks, by name; check-order.ts gives their order. */
const CHECKS: Record<StageName, Omit<Stage, 'name'>> = {
  // Judged by planRequest before the plan is made: a preflight counts the address's window, not a key's.
  preflight: { needsBody: false, onHead: (h) => isPreflight(h.req.method, h.req.headers) },
  route: {
    needsBody: false,
    ahead: (plan) => {
      const where = plan.where;
      if (where === undefined || where.kind === 'operation' || where.kind === 'declared') return undefined;
      if (where.kind === 'document' || where.kind === 'options') return ANSWERED;
      return routeError(where);
    },
    onHead: (h) => {
      h.where = tableOf(h.state.settings).route(h.req.method, h.req.path);
      // A declared operation reads no body but keeps its size cap: the body is let in and counted.
      if (h.where.kind === 'declared') return false;
      // Only an operation that reads a body (creating an animal) waits for one; every other route answers without.
      return !readsBody(h.where);
    },
  },
  removal: {
    needsBody: false,
    // The removal date is judged on the session's clock, which only the home reads.
    byHome: (plan) => deprecatedOperation(plan.where) !== undefined,
    decided: (d) => {
      const deprecated = deprecatedOperation(d.plan.where);
      if (!d.removed || deprecated === undefined) return undefined;
      const removed = new Date(d.settings.deprecation.removalAt).toISOString();
      return new MockError(
        'endpoint_removed',
        `${deprecated.method} ${deprecated.path} was removed on ${removed}. Use GET /v1/pets with the status filter instead.`,
      );
    },
  },
  auth: {
    needsBody: false,
    ahead: (plan) => (plan.auth === undefined || plan.auth.ok ? undefined : plan.auth.error),
    onHead: (h) => {
      h.auth = authenticate(h.req.headers, h.req.rawHeaders, h.state.keys, h.req.query);
      return !h.auth.ok;
    },
  },
  limit: {
    needsBody: false,
    byHome: () => true,
    decided: (d, answer) => {
      const rate = d.rate;
      if (rate.outcome === 'allowed') return undefined;
      if (d.plan.key !== undefined) answer.ban = rate.ban;
      return limitError(rate, d.plan.key);
    },
    // Nothing is counted before the body: a peek at the window, which a request without a valid key never reaches.
    onHead: (h) => h.auth?.ok === true && h.state.limiter.peek(keyBucket(h.auth.key.key), h.auth.key.limits, h.now).remaining === 0,
  },
  // The scenario's step or chaos, for an operation the limit allowed: its forced answer stands for
  // every later stage (docs/scenarios.md). The home ran it, and gave back the quota of a forced 429.
  scenario: {
    needsBody: false,
    byHome: (plan) => plan.where?.kind === 'operation',
    decided: (d) => (d.forced === undefined ? undefined : forcedOutcome(d.forced, d.now)),
  },
  'media-type': {
    needsBody: false,
    ahead: (plan, req) => (readsBody(plan.where) ? mediaTypeError(req.headers, req.body, req.bodyTooLarge === true) : undefined),
    onHead: (h) => readsBody(h.where) && mediaTypeRefusedByHeaders(h.req.headers),
  },
  'body-size': {
    needsBody: false,
    // A declared operation reads no body, but its size cap holds (docs/scenarios.md).
    ahead: (plan, req) => ((readsBody(plan.where) || plan.where?.kind === 'declared') && req.bodyTooLarge === true ? tooLargeError() : undefined),
    onHead: (h) => readsBody(h.where) && bodySizeRefusedByHeaders(h.req.headers),
  },
  validation: { needsBody: true, ahead: validate },
  operation: { needsBody: true },
};

/** The stages in their order; each stage's failure wins over every later one. */
export const STAGES: readonly Stage[] = STAGE_ORDER.map((name) => stage({ name, ...CHECKS[name] }));

/** The place of a stage in the order. */
export function stageIndex(name: StageName): number {
  return STAGES.findIndex((stage) => stage.name === name);
}

/** Where the home's counts come in: a failure before it means the limit may not refuse. */
export const LIMIT_INDEX = stageIndex('limit');

/** Each stage's place in the order, by name. */
export const STAGE_INDEX = Object.fromEntries(STAGES.map((s, i) => [s.name, i])) as Readonly<Record<StageName, number>>;

/** The places of the stages judged on the home's decision: the walk after the home visits only these. */
export const DECIDED_INDEXES: readonly number[] = STAGES.flatMap((s, i) => (s.decided !== undefined ? [i] : []));

/** The validation stage: the operation's input, parsed into the plan by its module (core/operations). */
function validate(plan: Plan, req: CoreRequest): unknown {
  const where = plan.where;
  if (where === undefined || where.kind !== 'operation') return undefined;
  try {
    plan.input = SPEC_MODULES[where.operation].parse(req, where.petId);
  } catch (error) {
    // A bug rather than a refusal answers 500 in the validation's place.
    return error;
  }
  return undefined;
}

/** The operations a 404 names, from the operations table. */
const NOT_FOUND_MESSAGE = `No operation lives at this path. The API has ${SPEC_OPERATIONS.map((op) => `${op.method} ${op.path}`).join(', ')}; paths are case-sensitive with no trailing slash.`;

function routeError(where: Route): MockError | undefined {
  switch (where.kind) {
    case 'not-found':
      return new MockError('route_not_found', NOT_FOUND_MESSAGE);
    case 'method-not-allowed':
      return new MockError('method_not_allowed', `This path does not answer that method; it answers ${where.allow}.`, { headers: { Allow: where.allow } });
    case 'not-implemented':
      return new MockError(
        'not_implemented',
        'petstore-mock does not implement store orders: the specification mentions them but does not define their method, path or payloads. A scenario can declare them with the answers you need (operations, docs/scenarios.md).',
      );
    default:
      return undefined;
  }
}
