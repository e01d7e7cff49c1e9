// The checks that need no session state, run before the home of state is asked, in the order of
// stages.ts: the first that fails, and whether the home must still decide the removal date. What
// they find is a plan: what to ask the home (`StateAsk`), and what the answer needs afterwards.
import { isPreflight } from './cors.js';
import { deprecatedOperation, deprecationHeaders } from './deprecation.js';
import { authenticate, redactKey } from './auth.js';
import { tableOf } from './operations-table.js';
import { ANSWERED, LIMIT_INDEX, STAGES, type Plan, type Stage } from './stages.js';
import { addressBucket, keyBucket, type SessionSettings } from '../state/session-state.js';
import type { CoreRequest, KeyConfig } from '../types.js';

/** Past this many distinct keys the memo of bucket ids and redacted keys starts over. */
const MEMO_LIMIT = 10_000;

/** What the journal and the limiter need of a valid key, made once per key (its salted id is the home's: KeyIds). */
interface KeyFacts {
  bucket: string;
  shown: string;
}

const keyFacts = new Map<string, KeyFacts>();

/** The few keys a server sees, remembered so the hot path builds no strings and hashes no key. */
function factsOf(key: string): KeyFacts {
  let facts = keyFacts.get(key);
  if (facts === undefined) {
    if (keyFacts.size >= MEMO_LIMIT) keyFacts.clear();
    facts = { bucket: keyBucket(key), shown: redactKey(key) };
    keyFacts.set(key, facts);
  }
  return facts;
}
const keyMaps = new WeakMap<SessionSettings, Map<string, KeyConfig>>();

/** The keys of settings by their value, built once per settings. */
export function keysOf(settings: SessionSettings): Map<string, KeyConfig> {
  let keys = keyMaps.get(settings);
  if (!keys) {
    keys = new Map(settings.keys.map((k) => [k.key, k]));
    keyMaps.set(settings, keys);
  }
  return keys;
}

/** The plan of an answer decided before the checks (an unusable session id, a 414): it only reports the address's window. */
export function fixedPlan(req: CoreRequest, s: SessionSettings): Plan {
  return { kind: 'fixed', mode: 'peek', bucket: addressBucket(req.remoteAddress), limits: s.anonymousLimits, enforce: 'no' };
}

/** The plan of an API request under its session's settings: the stages' checks that need no state, in their order. */
export function planRequest(req: CoreRequest, s: SessionSettings): Plan {
  // The first stage, 'preflight': its answer needs no other check and shows the address's window.
  if (isPreflight(req.method, req.headers)) {
    return { ...fixedPlan(req, s), kind: 'preflight', allow: tableOf(s).allowed(req.path) ?? 'GET, HEAD, POST, OPTIONS' };
  }
  const where = tableOf(s).route(req.method, req.path);
  // Every answer after a preflight shows the window of the key sent, whichever check fails.
  const auth = authenticate(req.headers, req.rawHeaders, keysOf(s), req.query);
  const key = auth.ok ? auth.key.key : undefined;
  const facts = key !== undefined ? factsOf(key) : undefined;
  // Every field is set here, once, so that every plan has the same shape (V8 keeps the hot path monomorphic).
  const plan: Plan = {
    kind: 'api',
    mode: 'take',
    bucket: facts !== undefined ? facts.bucket : addressBucket(req.remoteAddress),
    limits: auth.ok ? auth.key.limits : s.anonymousLimits,
    enforce: 'yes',
    removal: false,
    operation: undefined,
    key,
    input: undefined,
    declared: undefined,
    where,
    auth,
    shownKey: facts?.shown,
    extraHeaders: deprecatedOperation(where) !== undefined ? { ...deprecationHeaders(s.deprecation) } : undefined,
    failed: undefined,
    failure: undefined,
    allow: undefined,
  };
  // The preflight was judged above: the walk goes on from the route.
  for (let i = 1; i < STAGES.length; i++) {
    const stage = STAGES[i] as Stage;
    if (stage.byHome !== undefined) {
      if (stage.name === 'removal') plan.removal = stage.byHome(plan);
      continue;
    }
    const found = stage.ahead?.(plan, req);
    if (found === undefined) continue;
    if (found === ANSWERED) {
      plan.kind = where.kind === 'options' ? 'options' : 'document';
      plan.mode = 'peek';
      if (where.kind === 'options') plan.allow = where.allow;
      return plan;
    }
    plan.failed = stage.name;
    plan.failure = found;
    // Past a failure before the limit the home counts the request but may not refuse it, nor run the operation.
    if (i < LIMIT_INDEX) {
      plan.enforce = 'no';
      return plan;
    }
    break;
  }
  // An invalid input still takes its scenario step: the operation is named once the limit may refuse.
  if (where.kind === 'operation') plan.operation = where.operation;
  // A declared operation's answers move on only when it runs: not past a failed stage (413).
  else if (where.kind === 'declared' && plan.failed === undefined) plan.declared = where.operation.operationId;
  return plan;
}
