// A session on Redis as a `petstore-mock/snapshot` document and back. The admin script's `snapshot`
// action reads the session's fields, buckets, animals and journal in one call (one instant), made
// here into the document the memory home writes for the same history (core/state/snapshot.ts); its
// `restore` action writes what restorePayload makes of a checked snapshot, in one call. The bounds
// a normal session keeps are applied before Redis is asked: a store past its bound is refused (507
// `store_full`, nothing changed), and the journal keeps the newest entries within its size and
// bytes, as the memory home's load does.
import { DEFAULT_JOURNAL_BYTES } from '../core/state/journal.js';
import { restoredEntries } from '../core/state/journal-restore.js';
import type { BucketState } from '../core/state/limiter.js';
import { snapshotError, type RestoredState } from '../core/state/snapshot-restore.js';
import { petJson } from '../core/state/base-data.js';
import { checkRestoredStore } from '../core/state/store-restore.js';
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  iso,
  snapshotBucket,
  snapshotClock,
  snapshotPet,
  snapshotSettings,
  type SnapshotDocument,
  type SnapshotPet,
} from '../core/state/snapshot.js';
import type { SessionSettings } from '../core/state/session-state.js';
import { journalEntries } from './journal-runs.js';
import { removedField, removedIds } from './removed-field.js';

/**
 * The session hash's fields a snapshot carries (docs/scale-out.md lists them all): the script reads these
 * names, and the document is made from them by name (a field added here is read with the others).
 */
export const SNAPSHOT_FIELDS = ['off', 'fz', 'st', 'tk', 'cs', 'ls', 'nid', 'jseq', 'do', 'rm'] as const;

/** What the admin script's `snapshot` action reads (see snapshotOf in scripts.ts). */
export interface RawSnapshot {
  /** The fields of SNAPSHOT_FIELDS by name: '' where the session has none. */
  f: Record<(typeof SNAPSHOT_FIELDS)[number], string>;
  /** Redis time, ms. */
  real: string;
  /** Each bucket in creation order: its id, then its packed numbers as digits. */
  b: string[][];
  /** The created animals as JSON, in id order. */
  p: string[];
  /** The journal as "BYTES JSON" lines. */
  j: string[];
  /** Each declared operation's count of calls, by operationId (an empty Lua table may come as a list). */
  d?: Record<string, number> | unknown[];
}

// The Lua limiter's "no window, no wait, no ban" (NONE in lua-limits.ts) and the clock's bound.
const NONE = -9e15;
const MAX_INSTANT = 8.64e15;

/** Lua's JSON writes an empty list as {}. */
function list<T>(value: T[] | Record<string, never>): T[] {
  return Array.isArray(value) ? value : [];
}

/** A bucket as the limiter exports it, from the numbers the Lua limiter packs (bucketNumbers in lua-limits.ts). */
function bucketState(row: string[]): BucketState {
  const [id = '', wf, wu, ct, bu, fg, ...rest] = row.map((v, i) => (i === 0 ? v : Number(v))) as [string, ...number[]];
  const some = (v: number | undefined): v is number => v !== undefined && v > NONE;
  const windows: BucketState['windows'] = [];
  for (let i = 0; i + 2 < rest.length; i += 3) windows.push({ lengthMs: rest[i] as number, index: rest[i + 1] as number, count: rest[i + 2] as number });
  const state: BucketState = { id, windows };
  if (some(wf) || some(wu) || (ct ?? 0) > 0 || (fg ?? 0) > 0)
    state.wait = { from: some(wf) ? wf : -Infinity, until: some(wu) ? wu : -Infinity, counted: ct ?? 0, forgiven: fg ?? 0 };
  if (some(bu)) state.bannedUntil = bu;
  return state;
}

/** An animal as the store keeps it in Redis (petJson), its category id read exactly past 2^53. */
function storedPet(json: string): SnapshotPet {
  const pet = JSON.parse(json) as SnapshotPet;
  // A name is JSON-escaped, so the last `"categoryId":` is the field's own.
  const digits = /^-?\d+/.exec(json.slice(json.lastIndexOf('"categoryId":') + 13))?.[0];
  if (digits !== undefined && !Number.isSafeInteger(Number(digits))) pet.categoryId = digits;
  return pet;
}

/** The document of a session on Redis, from the settings it runs under and what the script read. */
export function redisSnapshot(sid: string, settings: SessionSettings, raw: RawSnapshot): SnapshotDocument {
  const { off, fz, st, tk, cs, ls, nid, jseq, do: override, rm } = raw.f;
  const real = Number(raw.real);
  const frozen = fz !== '';
  const now = frozen ? Number(fz) : Math.min(MAX_INSTANT, real + Number(off || '0'));
  const position = settings.runtimeSpec
    ? { step: Number(st || '0'), taken: Number(tk || '0'), chaosState: Number(cs || '0'), latencyState: Number(ls || '0') }
    : null;
  const entries = journalEntries(list(raw.j));
  const doc: SnapshotDocument = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    takenAt: iso(real),
    session: sid,
    ...snapshotSettings(settings, position),
    clock: snapshotClock(now, real, frozen),
    store: { base: settings.base.all.map(snapshotPet), created: list(raw.p).map(storedPet), nextId: Number(nid || String(settings.base.maxId + 1)) },
    limits: list(raw.b).map((row) => snapshotBucket(bucketState(row))),
    journal: { total: Number(jseq || '0'), details: override !== '' ? override === '1' : settings.journalDetails === true, entries },
  };
  const removed = removedIds(rm);
  if (removed.length > 0) doc.store.removed = removed;
  if (raw.d !== undefined && !Array.isArray(raw.d) && Object.keys(raw.d).length > 0) doc.scenario.declared = { ...raw.d };
  return doc;
}

/** What the `restore` action writes (see scripts.ts); numbers as JSON carries them exactly. */
export interface RestorePayload {
  now: number;
  frozen: boolean;
  /** The session hash's fields written as they are, by name (the clock's two are written from `now` with Redis time). */
  f: Record<string, string>;
  /** The created animals as the store keeps them, with their status ('' for none). */
  p: { j: string; s: string }[];
  /** The buckets in order, each as the numbers the Lua limiter packs. */
  b: { id: string; v: number[] }[];
  /** Journal entries as "BYTES JSON", oldest first. */
  j: string[];
  /** Each declared operation's count of calls, by operationId. */
  d: Record<string, number>;
}

function packed(b: BucketState): number[] {
  const instant = (ms: number | undefined): number => (ms === undefined || !Number.isFinite(ms) ? NONE : ms);
  const head = [instant(b.wait?.from), instant(b.wait?.until), b.wait?.counted ?? 0, instant(b.bannedUntil), b.wait?.forgiven ?? 0];
  return head.concat(b.windows.flatMap((w) => [w.lengthMs, w.index, w.count]));
}

/**
 * The writes of a restore into session `sid` running `settings` (the restored settings as this
 * instance compiled them). Throws `store_full` when the animals do not fit a session's store, and
 * `snapshot_invalid` when their ids do not follow the base's highest id one by one (the shared
 * store finds an animal by its place after the base).
 */
export function restorePayload(sid: string, r: RestoredState, settings: SessionSettings): RestorePayload {
  const first = settings.base.maxId + 1;
  r.created.forEach((pet, i) => {
    if (pet.id !== first + i) {
      throw snapshotError(
        `/store/created/${i}/id`,
        `on shared state (--state) the created animals' ids follow ${first - 1}, the base's highest, one by one: ${first + i} was expected`,
      );
    }
  });
  if (r.nextId !== first + r.created.length) {
    throw snapshotError('/store/nextId', `on shared state (--state) the next id follows the last animal's: ${first + r.created.length} was expected`);
  }
  // A base this server does not hold already counts with the created animals, as in memory.
  const cb = checkRestoredStore(settings.base, r.created, r.removed.length);

  const spec = settings.runtimeSpec;
  const position = r.position ?? { step: 0, taken: 0, chaosState: (spec?.chaos?.seed ?? 0) >>> 0, latencyState: (spec?.latency?.seed ?? 0) >>> 0 };

  // The journal's bounds, as adding the entries one by one keeps them: the newest that fit.
  const kept = restoredEntries(r.entries, sid, settings.journalSize, DEFAULT_JOURNAL_BYTES).map(({ entry, bytes }) => ({
    text: `${bytes} ${JSON.stringify(entry)}`,
    bytes,
  }));
  const jb = kept.reduce((sum, e) => sum + e.bytes, 0);

  return {
    now: r.clock.now,
    frozen: r.clock.frozen,
    f: {
      st: String(position.step),
      tk: String(position.taken),
      cs: String(position.chaosState >>> 0),
      ls: String(position.latencyState >>> 0),
      nid: String(r.nextId),
      rm: removedField(r.removed),
      // The created animals' count and bytes, which the store's bounds read.
      pc: String(r.created.length),
      cb: String(cb),
      jseq: String(r.total),
      jb: String(jb),
      // The session's own choice of recording details: '' (the settings'), '1' or '0'.
      do: r.details === (settings.journalDetails === true) ? '' : r.details ? '1' : '0',
    },
    p: r.created.map((pet) => ({ j: petJson(pet), s: pet.status ?? '' })),
    b: r.buckets.map((b) => ({ id: b.id, v: packed(b) })),
    j: kept.map((e) => e.text),
    d: Object.fromEntries(r.declared),
  };
}
