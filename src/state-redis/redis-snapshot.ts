// A session on Redis as a `petstore-mock/snapshot` document: the admin script's `snapshot` action
// reads the session's fields, buckets, animals and journal in one call (one instant), and this
// turns them into the document the memory home writes for the same history (core/state/snapshot.ts).
import type { BucketState } from '../core/state/limiter.js';
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
import { removedIds } from './removed-field.js';

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
  /** Each bucket in creation order: its id, then its nine packed numbers as digits. */
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
  const from = some(wf) ? wf : -Infinity;
  const until = some(wu) ? wu : -Infinity;
  if (Number.isFinite(from) || Number.isFinite(until) || (ct ?? 0) > 0 || (fg ?? 0) > 0) state.wait = { from, until, counted: ct ?? 0, forgiven: fg ?? 0 };
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
