// Reads a `petstore-mock/snapshot` document back into what a session holds. Every check runs
// before anything changes: a wrong document is refused whole, naming its first wrong field by
// JSON pointer, and the session stays as it was.
import { MockError } from '../errors.js';
import { ScenarioSpecError, compileScenario } from '../scenarios/scenario-compiler.js';
import { ScriptedRuntime, type RuntimePosition } from '../scenarios/scenario-runtime.js';
import { parseInstant } from './clock.js';
import { DEFAULT_JOURNAL_BYTES, type JournalEntry } from './journal.js';
import { rekeyedEntries, restoredEntries } from './journal-restore.js';
import type { KeyIds } from './key-id.js';
import type { BucketState } from './limiter.js';
import type { BaseData } from './base-data.js';
import { checkRestoredStore, restoredBase } from './store-restore.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, WINDOW_NAMES, type SnapshotDocument, type SnapshotPet } from './snapshot.js';
import type { SessionState, SessionSettings } from './session-state.js';
import type { KeyConfig, Limits, Pet } from '../types.js';
import { WINDOW_UNITS, parseWindows, windowName, windowsProblem } from './windows.js';

/** The schema check of a document (scenarios/snapshot.schema.json): its first mistake, or none. */
export type SnapshotSchemaCheck = (value: unknown) => { pointer: string; message: string } | undefined;

/** A checked snapshot, ready to replace a session's state. */
export interface RestoredState {
  settings: SessionSettings;
  created: Pet[];
  nextId: number;
  /** The ids the session removed, ascending, each one of its base or created animals. */
  removed: number[];
  buckets: BucketState[];
  clock: { now: number; frozen: boolean };
  position: RuntimePosition | undefined;
  /** How many calls each declared operation has answered. */
  declared: Map<string, number>;
  entries: JournalEntry[];
  total: number;
  details: boolean;
}

const HINT = 'send a document GET /__admin/snapshot (or mock.snapshot()) wrote, changed only where scenarios/snapshot.schema.json allows';

/** The 400 of a wrong document, naming the field by JSON pointer. */
export function snapshotError(pointer: string, message: string): MockError {
  return new MockError('snapshot_invalid', `the snapshot is not valid at ${pointer || '/'}: ${message}; ${HINT}.`, {
    details: [{ field: pointer || '/', message }],
  });
}

/** A JSON pointer of a path (RFC 6901). */
export function pointerOf(path: readonly (string | number)[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Refuses a document of another format or version, naming both versions, before its shape is checked. */
function checkVersion(value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw snapshotError('', 'a snapshot is a JSON object');
  const { format, version } = value as { format?: unknown; version?: unknown };
  if (format !== SNAPSHOT_FORMAT)
    throw snapshotError('/format', `format must be ${JSON.stringify(SNAPSHOT_FORMAT)}, not ${JSON.stringify(format) ?? 'missing'}`);
  if (version !== SNAPSHOT_VERSION) {
    throw new MockError(
      'snapshot_invalid',
      `the snapshot is version ${JSON.stringify(version) ?? 'missing'}, and this petstore-mock reads version ${SNAPSHOT_VERSION}; take it again with this version, or restore it with the version that wrote it.`,
      { details: [{ field: '/version', message: `version ${JSON.stringify(version) ?? 'missing'} given, version ${SNAPSHOT_VERSION} read` }] },
    );
  }
}

function instantAt(text: string, pointer: string): number {
  const ms = parseInstant(text);
  if (ms === undefined) throw snapshotError(pointer, `${JSON.stringify(text)} is not an ISO-8601 instant that exists`);
  return ms;
}

/** `["10/s", "60/m", "1000/d"]` as limits: any windows of the units s, m, h, d, each once. */
function limitsOf(windows: readonly string[], pointer: string): Limits {
  const problem = windowsProblem(windows);
  if (problem !== undefined) throw snapshotError(pointer, `the limits cannot be used: ${problem}`);
  return parseWindows(windows);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An animal of the document; a `categoryId` outside int64 (what the API declares) is refused at `pointer`. */
function petOf(pet: SnapshotPet, pointer: string): Pet {
  const category = typeof pet.categoryId === 'string' ? BigInt(pet.categoryId) : pet.categoryId;
  const exact = typeof category === 'bigint' ? category : BigInt(category);
  if (exact < INT64_MIN || exact > INT64_MAX) {
    throw snapshotError(`${pointer}/categoryId`, `a categoryId is an int64, from ${INT64_MIN} to ${INT64_MAX}; ${pet.categoryId} is outside it`);
  }
  const categoryId = typeof category === 'bigint' && Number.isSafeInteger(Number(category)) ? Number(category) : category;
  return pet.status === undefined ? { id: pet.id, name: pet.name, categoryId } : { id: pet.id, name: pet.name, categoryId, status: pet.status };
}

/** Ids strictly ascending and above `above`; returns the last. */
function checkIds(pets: readonly SnapshotPet[], above: number, pointer: string): number {
  let last = above;
  pets.forEach((pet, i) => {
    if (pet.id <= last) throw snapshotError(`${pointer}/${i}/id`, `ids must ascend: ${pet.id} follows ${last}`);
    last = pet.id;
  });
  return last;
}

/** The removed ids: ascending, each the id of an animal of the base or created. */
function checkRemoved(store: SnapshotDocument['store']): number[] {
  const removed = store.removed ?? [];
  if (removed.length === 0) return [];
  const held = new Set<number>();
  for (const pet of store.base) held.add(pet.id);
  for (const pet of store.created) held.add(pet.id);
  let last = 0;
  removed.forEach((id, i) => {
    if (id <= last) throw snapshotError(`/store/removed/${i}`, `ids must ascend: ${id} follows ${last}`);
    if (!held.has(id))
      throw snapshotError(`/store/removed/${i}`, `no animal of the store has id ${id}; only animals of store.base or store.created can be removed`);
    last = id;
  });
  return removed;
}

function samePets(a: readonly Pet[], b: readonly Pet[]): boolean {
  return (
    a.length === b.length &&
    a.every((p, i) => {
      const q = b[i];
      return q !== undefined && p.id === q.id && p.name === q.name && p.categoryId === q.categoryId && p.status === q.status;
    })
  );
}

/**
 * Checks a document and turns it into the state it holds, compiling its scenario's definition
 * against the document's own settings. `bases` are stores the server already holds: an equal one
 * is shared rather than copied. The journal is given `keyIds` (this deployment's; none when only the settings are wanted). Throws `snapshot_invalid` (400) at the first mistake.
 */
export function readSnapshot(value: unknown, schema: SnapshotSchemaCheck, bases: readonly BaseData[], keyIds: KeyIds | undefined): RestoredState {
  checkVersion(value);
  const problem = schema(value);
  if (problem) throw snapshotError(problem.pointer, problem.message);
  const doc = value as SnapshotDocument;
  const { settings: s, store } = doc;

  const keys: KeyConfig[] = [];
  const seen = new Set<string>();
  s.keys.forEach((k, i) => {
    if (seen.has(k.key)) throw snapshotError(`/settings/keys/${i}/key`, `the key ${JSON.stringify(k.key)} is listed twice`);
    seen.add(k.key);
    const key: KeyConfig = { key: k.key, plan: k.plan, limits: limitsOf(k.limits, `/settings/keys/${i}/limits`) };
    if (k.custom) key.custom = true;
    if (k.revoked) key.revoked = true;
    keys.push(key);
  });

  const basePets = store.base.map((pet, i) => petOf(pet, `/store/base/${i}`));
  const baseMax = checkIds(store.base, 0, '/store/base');
  const createdMax = checkIds(store.created, baseMax, '/store/created');
  if (store.nextId <= createdMax) throw snapshotError('/store/nextId', `the next id must follow every animal's id (${createdMax})`);
  const removed = checkRemoved(store);
  // A base the server holds already is shared; another is this session's alone, and counts against its store.
  const base = bases.find((b) => samePets(b.all, basePets)) ?? restoredBase(basePets);

  const own = {
    base,
    keys,
    anonymousLimits: limitsOf(s.anonymousLimits, '/settings/anonymousLimits'),
    ban: { ...s.ban },
    deprecation: {
      deprecatedAt: instantAt(s.deprecation.deprecatedAt, '/settings/deprecation/deprecatedAt'),
      removalAt: instantAt(s.deprecation.removalAt, '/settings/deprecation/removalAt'),
    },
    journalSize: s.journal.size,
    journalDetails: s.journal.details,
  };
  const defaults: SessionSettings = { ...own, scenario: doc.scenario.name, clock: { frozen: false }, usage: [] };
  let compiled: SessionSettings;
  try {
    compiled = compileScenario(doc.scenario.definition, doc.scenario.name, { defaults, data: () => base });
  } catch (error) {
    if (error instanceof ScenarioSpecError) throw snapshotError(pointerOf(['scenario', 'definition', ...error.path]), error.message);
    throw error;
  }
  // The document's own settings win: they are what the session ran under, whatever the definition
  // would make of this server's defaults.
  const settings: SessionSettings = { ...compiled, ...own, inline: true };

  const last = doc.journal.entries.at(-1);
  if (last !== undefined && last.seq > doc.journal.total) {
    throw snapshotError('/journal/total', `the count must be at least the last entry's number (${last.seq}), or the next request would repeat it`);
  }
  const position = doc.scenario.position ?? undefined;
  const steps = settings.runtimeSpec?.steps ?? [];
  if (position && position.step > steps.length) {
    throw snapshotError('/scenario/position/step', `the scenario has ${steps.length} steps; the position cannot be past them`);
  }

  const declared = new Map(Object.entries(doc.scenario.declared ?? {}));
  for (const id of declared.keys()) {
    if (!settings.operations?.some((op) => op.operationId === id))
      throw snapshotError(`/scenario/declared/${id}`, 'the scenario declares no operation of this id');
  }

  return {
    settings,
    declared,
    created: store.created.map((pet, i) => petOf(pet, `/store/created/${i}`)),
    nextId: store.nextId,
    removed,
    buckets: doc.limits.map((b, i) => bucketOf(b, `/limits/${i}`)),
    clock: { now: instantAt(doc.clock.now, '/clock/now'), frozen: doc.clock.frozen },
    position,
    entries: keyIds === undefined ? doc.journal.entries : rekeyedEntries(doc.journal.entries, settings.keys, keyIds),
    total: doc.journal.total,
    details: doc.journal.details,
  };
}

const LENGTH_OF_NAME: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(WINDOW_NAMES).map(([ms, name]) => [name, Number(ms)]));

function bucketOf(b: SnapshotDocument['limits'][number], pointer: string): BucketState {
  if ((b.key === undefined) === (b.address === undefined)) throw snapshotError(pointer, 'a bucket names either a key or an address');
  const state: BucketState = { id: b.key !== undefined ? `key:${b.key}` : `addr:${b.address ?? ''}`, windows: [] };
  b.windows.forEach((w, i) => {
    const at = `${pointer}/windows/${i}`;
    const lengthMs = typeof w.window === 'number' ? w.window * 1000 : LENGTH_OF_NAME[w.window];
    if (lengthMs === undefined || !Object.values(WINDOW_UNITS).includes(lengthMs)) {
      throw snapshotError(
        `${at}/window`,
        `this version keeps windows of a second, minute, hour or day ("1s", "1m", "1h", "1d", or 1, 60, 3600, 86400), not ${JSON.stringify(w.window)}`,
      );
    }
    if (state.windows.some((x) => x.lengthMs === lengthMs)) throw snapshotError(`${at}/window`, 'each window is listed once');
    const start = instantAt(w.start, `${at}/start`);
    if (start % lengthMs !== 0)
      throw snapshotError(
        `${at}/start`,
        `a window of ${lengthMs / 1000} s starts at the beginning of its ${windowName(lengthMs)}${lengthMs === 86_400_000 ? ' (UTC)' : ''}`,
      );
    state.windows.push({ lengthMs, index: start / lengthMs, count: w.count });
  });
  if (b.wait) {
    const { from, until, counted, forgiven } = b.wait;
    state.wait = {
      from: from === null ? -Infinity : instantAt(from, `${pointer}/wait/from`),
      until: until === null ? -Infinity : instantAt(until, `${pointer}/wait/until`),
      counted,
      forgiven,
    };
  }
  if (b.bannedUntil !== undefined) state.bannedUntil = instantAt(b.bannedUntil, `${pointer}/bannedUntil`);
  return state;
}

/**
 * Readies the replacement of a session's whole state with a snapshot's (checked by
 * `readSnapshot`) against `state`, the session as it stands (or as a new one would start): every
 * check that can fail runs here, and everything the state will hold is built, before anything
 * changes. Throws `store_full` when the animals do not fit the store's bounds (a restored base
 * counted with them); the journal keeps the newest entries within its bounds, every field counted
 * as for an answered request. The function returned makes the swap, and cannot fail.
 */
export function prepareRestore(state: SessionState, r: RestoredState): (target: SessionState) => void {
  const storeBytes = checkRestoredStore(r.settings.base, r.created, r.removed.length);
  state.store.checkLoad(storeBytes, r.settings.base);
  const entries = restoredEntries(r.entries, state.id, r.settings.journalSize, DEFAULT_JOURNAL_BYTES);
  const runtime = r.settings.runtimeSpec ? new ScriptedRuntime(r.settings.runtimeSpec, r.position) : undefined;
  return (target) => {
    // The document says whether the journal records details; this session's own choice goes.
    target.detailsOverride = undefined;
    target.apply(r.settings);
    target.store.load(r.settings.base, r.created, r.nextId, storeBytes, r.removed);
    target.limiter.restoreBuckets(r.buckets);
    target.clock.restore();
    if (r.clock.frozen) target.clock.freeze();
    target.clock.set(r.clock.now);
    target.runtime = runtime;
    for (const [id, calls] of r.declared) target.declaredCalls.set(id, calls);
    if (r.details !== (r.settings.journalDetails === true)) target.recordDetails(r.details);
    // The entries are this session's now, whichever session they were answered in.
    target.journal.load(entries, r.total);
    target.evictedAt = undefined;
  };
}
