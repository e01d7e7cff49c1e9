// The checks that need no session state, run before the home of state is asked: preflight, route,
// auth, the removal date's place in the order, the operation's input. What they find is a plan:
// what to ask the home (`StateAsk`), and what the answer needs afterwards.
import { isPreflight } from './cors.js';
import { deprecationHeaders } from './deprecation.js';
import { earlyError } from './outcome.js';
import { authenticate, redactKey, type AuthResult } from './auth.js';
import { allowedMethods, route, type Route } from './router.js';
import { readJsonBody } from '../input/body.js';
import { parseListQuery, parsePetId, validateNewPet } from '../input/validation.js';
import { addressBucket, keyBucket, type SessionSettings } from '../state/session-state.js';
import type { StateAsk } from '../state/state-port.js';
import type { CoreRequest, KeyConfig } from '../types.js';

/** A request's plan: what the home is asked, and what the answer is built from. */
export interface Plan extends StateAsk {
  kind: 'fixed' | 'preflight' | 'document' | 'options' | 'api';
  where?: Route;
  auth?: AuthResult;
  /** The valid key, redacted, for the journal. */
  shownKey?: string;
  extraHeaders?: Record<string, string>;
  /** Why the operation's input cannot be used; thrown after the limit, as the order says. */
  inputError?: unknown;
  allow?: string;
}

/** Past this many distinct keys the memo of bucket ids and redacted keys starts over. */
const MEMO_LIMIT = 10_000;

/** Remembers a pure function's answers for the few keys a server sees, so the hot path builds no strings. */
function memo(fn: (key: string) => string): (key: string) => string {
  const seen = new Map<string, string>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) {
      if (seen.size >= MEMO_LIMIT) seen.clear();
      value = fn(key);
      seen.set(key, value);
    }
    return value;
  };
}

const bucketOfKey = memo(keyBucket);
const redacted = memo(redactKey);
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
    return { ...fixedPlan(req, s), kind: 'preflight', allow: allowedMethods(req.path) ?? 'GET, HEAD, POST, OPTIONS' };
  }
  const where = route(req.method, req.path);
  const auth = authenticate(req.headers, req.rawHeaders, keysOf(s), req.query);
  const key = auth.ok ? auth.key.key : undefined;
  // Every field is set here, once, so that every plan has the same shape (V8 keeps the hot path monomorphic).
  const plan: Plan = {
    kind: 'api',
    mode: 'take',
    bucket: key !== undefined ? bucketOfKey(key) : addressBucket(req.remoteAddress),
    limits: auth.ok ? auth.key.limits : s.anonymousLimits,
    enforce: 'yes',
    operation: undefined,
    key,
    list: undefined,
    create: undefined,
    get: undefined,
    where,
    auth,
    shownKey: key !== undefined ? redacted(key) : undefined,
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
  if (where.kind !== 'operation') return plan;
  if (isGet) plan.enforce = 'removal';
  plan.operation = where.operation;
  try {
    if (where.operation === 'listPets') plan.list = parseListQuery(req.query);
    else if (where.operation === 'createPet') {
      const parsed = readJsonBody(req.headers, req.body, req.bodyTooLarge === true);
      plan.create = validateNewPet(parsed.value, parsed.hasBigInt);
    } else plan.get = { id: parsePetId(where.petId ?? '') };
  } catch (error) {
    plan.inputError = error;
  }
  return plan;
}
