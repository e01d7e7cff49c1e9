// What one API request asks of a home of state that is asked, not held (Redis): the checks that
// need no state run here with the functions the in-memory pipeline uses; what needs the session's
// state (clock, counters, steps, store) becomes a `DecideInput` of named fields.
import { isPreflight } from './cors.js';
import { deprecationHeaders } from './deprecation.js';
import { earlyError } from './outcome.js';
import { authenticate, type AuthResult } from './auth.js';
import { allowedMethods, route } from './router.js';
import { readJsonBody } from '../input/body.js';
import { parseListQuery, parsePetId, validateNewPet } from '../input/validation.js';
import { matches, type CompiledAnswer } from '../scenarios/scenario-runtime.js';
import { BAN_IN_FLIGHT } from '../state/limiter.js';
import { MAX_CREATED_BYTES, MAX_CREATED_PETS, PetStore, createdPetBytes, petJson } from '../state/store.js';
import type { DecideInput } from '../state/state-port.js';
import { addressBucket, keyBucket, type OperationId, type WorldSettings } from '../state/world.js';
import type { CoreRequest, KeyConfig, Limits, PetStatus } from '../types.js';

/** What the script is asked to do for one request, and what the answer needs afterwards. */
export interface Plan {
  kind: 'peek' | 'preflight' | 'document' | 'options' | 'take';
  input: DecideInput;
  auth?: AuthResult;
  extraHeaders?: Record<string, string>;
  operation?: OperationId;
  /** The operation's input, or why it cannot run (thrown after the checks, as in memory). */
  list?: { limit: number; status?: PetStatus; inBase: number };
  create?: { tail: string };
  get?: { found?: string; pending?: boolean; id: number | bigint };
  inputError?: unknown;
  allow?: string;
}

/** What requests need from settings, computed once per settings. */
interface Prepared {
  keys: Map<string, KeyConfig>;
  /** The base animals alone, to look one up by id. */
  baseStore: PetStore;
  /** Each step's times; a step that answers forever never moves on: -1. */
  times: number[];
}

const prepared = new WeakMap<WorldSettings, Prepared>();

/** The keys, base animals and step times of settings, computed once. */
export function preparedOf(settings: WorldSettings): Prepared {
  let p = prepared.get(settings);
  if (!p) {
    const spec = settings.runtimeSpec;
    p = {
      keys: new Map(settings.keys.map((k) => [k.key, k])),
      baseStore: new PetStore(settings.base),
      times: spec ? spec.steps.map((s) => (s.times === Infinity ? -1 : s.times)) : [],
    };
    prepared.set(settings, p);
  }
  return p;
}

/** The one-letter kind of an answer the home acts on: normal, forced, or a forced 429 (which refunds). */
export function answerCode(answer: CompiledAnswer): string {
  if (answer.kind === 'normal') return 'n';
  return answer.kind === 'error' && answer.status === 429 ? 'r' : 'f';
}

function peekInput(bucket: string, limits: Limits): DecideInput {
  return { mode: 'peek', bucket, pm: limits.perMinute, pd: limits.perDay };
}

/** A plan that only reports the client address's window (answers decided before the checks). */
export function peekPlan(req: CoreRequest, s: WorldSettings): Plan {
  return { kind: 'peek', input: peekInput(addressBucket(req.remoteAddress), s.anonymousLimits) };
}

/** The plan of an API request under a session's settings. */
export function planRequest(req: CoreRequest, s: WorldSettings): Plan {
  const p = preparedOf(s);
  if (isPreflight(req.method, req.headers)) return { ...peekPlan(req, s), kind: 'preflight', allow: allowedMethods(req.path) ?? 'GET, HEAD, POST, OPTIONS' };
  const where = route(req.method, req.path);
  const auth = authenticate(req.headers, req.rawHeaders, p.keys, req.query);
  const bucket = auth.ok ? keyBucket(auth.key.key) : addressBucket(req.remoteAddress);
  const limits = auth.ok ? auth.key.limits : s.anonymousLimits;
  const extraHeaders = where.kind === 'operation' && where.operation === 'getPet' ? { ...deprecationHeaders(s.deprecation) } : undefined;
  if (where.kind === 'document' || where.kind === 'options') {
    return { kind: where.kind, input: peekInput(bucket, limits), auth, extraHeaders, allow: where.kind === 'options' ? where.allow : undefined };
  }
  // The removal date needs the clock, which only Redis knows: the script applies it ('removal').
  const early = earlyError(where, { settings: { ...s, deprecation: { ...s.deprecation, removalAt: Infinity } } }, 0, auth);
  const isGet = where.kind === 'operation' && where.operation === 'getPet';
  const input: DecideInput = {
    mode: 'take',
    bucket,
    pm: limits.perMinute,
    pd: limits.perDay,
    enforce: early ? 'no' : isGet ? 'removal' : 'yes',
    removalAt: s.deprecation.removalAt,
    rule: { after: s.ban.after, ms: s.ban.durationMs, inFlight: s.ban.inFlight ?? BAN_IN_FLIGHT },
    steps: '',
    times: p.times,
    rep: s.runtimeSpec?.repeat === true,
    chaos: [],
    lat: false,
    op: '',
  };
  const plan: Plan = { kind: 'take', input, auth, extraHeaders };
  if (where.kind === 'operation' && early === undefined) {
    plan.operation = where.operation;
    try {
      if (where.operation === 'listPets') {
        const query = parseListQuery(req.query);
        const inBase = query.status ? (s.base.byStatus.get(query.status)?.length ?? 0) : s.base.all.length;
        plan.list = { limit: query.limit, status: query.status, inBase };
        Object.assign(input, { op: 'list', status: query.status ?? '', count: Math.max(0, query.limit - inBase) });
      } else if (where.operation === 'createPet') {
        const parsed = readJsonBody(req.headers, req.body, req.bodyTooLarge === true);
        const pet = validateNewPet(parsed.value, parsed.hasBigInt);
        const tail = petJson({ id: 0, ...pet }).slice('{"id":0'.length);
        plan.create = { tail };
        Object.assign(input, {
          op: 'create',
          status: pet.status ?? '',
          tail,
          bytes: createdPetBytes(pet),
          maxCreated: MAX_CREATED_PETS,
          maxBytes: MAX_CREATED_BYTES,
        });
      } else {
        const id = parsePetId(where.petId ?? '');
        const inBase = p.baseStore.get(id);
        plan.get = { id, found: inBase ? petJson(inBase) : undefined };
        if (typeof id === 'number' && id > s.base.maxId) {
          Object.assign(input, { op: 'get', index: id - (s.base.maxId + 1) });
          plan.get.pending = true;
        }
      }
      // An operation with nothing to read or write still takes its step or chaos draw.
      if (input.op === '') input.op = 'none';
    } catch (error) {
      plan.inputError = error;
      input.op = 'none';
    }
    const spec = s.runtimeSpec;
    if (spec) {
      const key = auth.ok ? auth.key.key : undefined;
      input.steps = spec.steps.map((step) => (matches(step.match, where.operation, req, key) ? answerCode(step.answer) : '-')).join('');
      if (spec.chaos && matches(spec.chaos.match, where.operation, req, key)) {
        input.chaos = spec.chaos.answers.map((a) => ({ p: a.probability, c: answerCode(a.answer) }));
      }
    }
  }
  const latency = s.runtimeSpec?.latency;
  input.lat = latency !== undefined && latency.minMs !== latency.maxMs;
  return plan;
}
