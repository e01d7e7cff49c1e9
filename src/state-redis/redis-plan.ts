// What one API request asks of the shared state, in named fields: the checks that need no state
// are made here, in TypeScript, by the same functions the in-memory pipeline uses; what needs the
// session's state (clock, counters, steps, store) goes to the API script as a `DecideInput`.
import { isPreflight } from '../core/pipeline/cors.js';
import { deprecationHeaders } from '../core/pipeline/deprecation.js';
import { earlyError } from '../core/pipeline/outcome.js';
import { authenticate, type AuthResult } from '../core/pipeline/auth.js';
import { allowedMethods, route } from '../core/pipeline/router.js';
import { readJsonBody } from '../core/input/body.js';
import { parseListQuery, parsePetId, validateNewPet } from '../core/input/validation.js';
import { matches } from '../core/scenarios/scenario-runtime.js';
import { BAN_IN_FLIGHT } from '../core/state/limiter.js';
import { MAX_CREATED_BYTES, MAX_CREATED_PETS, createdPetBytes, petJson } from '../core/state/store.js';
import { addressBucket, keyBucket, type OperationId } from '../core/state/world.js';
import type { CoreRequest, Limits, PetStatus } from '../core/types.js';
import { answerCode, type SettingsEntry } from './settings-registry.js';

/** The named fields of the API script's request, apart from the session and journal the engine adds. */
export interface DecideInput {
  mode: 'peek' | 'take';
  bucket: string;
  pm: number;
  pd: number;
  /** Whether the limit refuses: yes, no (an earlier check failed), or unless the removal date passed. */
  enforce?: 'yes' | 'no' | 'removal';
  removalAt?: number;
  rule?: { after: number; ms: number; inFlight: number };
  /** Per step, the answer's one-letter kind when the step matches this request, else '-'. */
  steps?: string;
  times?: number[];
  rep?: boolean;
  chaos?: { p: number; c: string }[];
  lat?: boolean;
  op?: '' | 'none' | 'list' | 'get' | 'create';
  status?: string;
  count?: number;
  index?: number;
  tail?: string;
  bytes?: number;
  maxCreated?: number;
  maxBytes?: number;
}

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

const stepTimes = new WeakMap<SettingsEntry, number[]>();

function timesOf(entry: SettingsEntry): number[] {
  let times = stepTimes.get(entry);
  if (!times) {
    times = entry.times === '' ? [] : entry.times.split(',').map(Number);
    stepTimes.set(entry, times);
  }
  return times;
}

function peekInput(bucket: string, limits: Limits): DecideInput {
  return { mode: 'peek', bucket, pm: limits.perMinute, pd: limits.perDay };
}

/** A plan that only reports the client address's window (answers decided before the checks). */
export function peekPlan(req: CoreRequest, entry: SettingsEntry): Plan {
  return { kind: 'peek', input: peekInput(addressBucket(req.remoteAddress), entry.settings.anonymousLimits) };
}

/** The plan of an API request under a session's settings. */
export function planRequest(req: CoreRequest, entry: SettingsEntry): Plan {
  const s = entry.settings;
  if (isPreflight(req.method, req.headers))
    return { ...peekPlan(req, entry), kind: 'preflight', allow: allowedMethods(req.path) ?? 'GET, HEAD, POST, OPTIONS' };
  const where = route(req.method, req.path);
  const auth = authenticate(req.headers, req.rawHeaders, entry.keys, req.query);
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
    times: timesOf(entry),
    rep: entry.repeat === '1',
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
        const inBase = entry.baseStore.get(id);
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
