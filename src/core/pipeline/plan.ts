// The checks that need no session state, run before the home of state is asked: preflight, route,
// auth, the removal date's place in the order, the operation's input. What they find is a plan:
// what to ask the home (`StateAsk`), and what the answer needs afterwards.
import { isPreflight } from './cors.js';
import { deprecationHeaders } from './deprecation.js';
import { earlyError } from './outcome.js';
import { authenticate, redactKey, type AuthResult } from './auth.js';
import type { Route } from './router.js';
import { tableOf } from './operations-table.js';
import { tooLargeError } from '../input/body.js';
import { SPEC_MODULES } from '../operations/index.js';
import { addressBucket, keyBucket, type SessionSettings } from '../state/session-state.js';
import { keyIdOf } from '../state/key-id.js';
import type { StateAsk } from '../state/state-port.js';
import type { CoreRequest, KeyConfig } from '../types.js';

/** A request's plan: what the home is asked, and what the answer is built from. */
export interface Plan extends StateAsk {
  kind: 'fixed' | 'preflight' | 'document' | 'options' | 'api';
  where?: Route;
  auth?: AuthResult;
  /** The valid key, redacted, for the journal. */
  shownKey?: string;
  /** The valid key's fingerprint (`keyIdOf`), for the journal. */
  keyId?: string;
  extraHeaders?: Record<string, string>;
  /** Why the operation's input cannot be used; thrown after the limit, as the order says. */
  inputError?: unknown;
  allow?: string;
}

/** Past this many distinct keys the memo of bucket ids and redacted keys starts over. */
const MEMO_LIMIT = 10_000;

/** What the journal and the limiter need of a valid key, made once per key. */
interface KeyFacts {
  bucket: string;
  shown: string;
  id: string;
}

const keyFacts = new Map<string, KeyFacts>();

/** The few keys a server sees, remembered so the hot path builds no strings and hashes no key. */
function factsOf(key: string): KeyFacts {
  let facts = keyFacts.get(key);
  if (facts === undefined) {
    if (keyFacts.size >= MEMO_LIMIT) keyFacts.clear();
    facts = { bucket: keyBucket(key), shown: redactKey(key), id: keyIdOf(key) };
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

/** The plan of an API request under its session's settings. */
export function planRequest(req: CoreRequest, s: SessionSettings): Plan {
  if (isPreflight(req.method, req.headers)) {
    return { ...fixedPlan(req, s), kind: 'preflight', allow: tableOf(s).allowed(req.path) ?? 'GET, HEAD, POST, OPTIONS' };
  }
  const where = tableOf(s).route(req.method, req.path);
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
    operation: undefined,
    key,
    input: undefined,
    declared: undefined,
    where,
    auth,
    shownKey: facts?.shown,
    keyId: facts?.id,
    extraHeaders: undefined,
    inputError: undefined,
    allow: undefined,
  };
  if (where.kind === 'document' || where.kind === 'options') {
    plan.kind = where.kind;
    plan.mode = 'peek';
    if (where.kind === 'options') plan.allow = where.allow;
    return plan;
  }
  const isGet = where.kind === 'operation' && where.operation === 'getPet';
  if (isGet) plan.extraHeaders = { ...deprecationHeaders(s.deprecation) };
  // The removal date needs the session's clock, which only the home reads: it applies 'removal'.
  if (earlyError(where, s, -Infinity, auth) !== undefined) {
    plan.enforce = 'no';
    return plan;
  }
  if (where.kind === 'declared') {
    // A declared operation reads no body: only the size cap holds (docs/scenarios.md).
    plan.declared = where.operation.operationId;
    if (req.bodyTooLarge === true) plan.inputError = tooLargeError();
    return plan;
  }
  if (where.kind !== 'operation') return plan;
  if (isGet) plan.enforce = 'removal';
  plan.operation = where.operation;
  try {
    plan.input = SPEC_MODULES[where.operation].parse(req, where.petId);
  } catch (error) {
    plan.inputError = error;
  }
  return plan;
}
