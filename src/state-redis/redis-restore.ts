// A checked snapshot (core/state/snapshot-restore.ts) as what the admin script's `restore` action
// writes into a session's keys in one call. The bounds a normal session keeps are applied here,
// before Redis is asked: a store past its bound is refused (507 `store_full`, nothing changed), and
// the journal keeps the newest entries within its size and bytes, as the memory home's load does.
import { DEFAULT_JOURNAL_BYTES } from '../core/state/journal.js';
import { restoredEntries } from '../core/state/journal-restore.js';
import type { BucketState } from '../core/state/limiter.js';
import { snapshotError, type RestoredState } from '../core/state/snapshot-restore.js';
import { petJson } from '../core/state/base-data.js';
import { checkRestoredStore } from '../core/state/store-restore.js';
import type { SessionSettings } from '../core/state/session-state.js';
import { removedField } from './removed-field.js';

/** What the `restore` action writes (see scripts.ts); numbers as JSON carries them exactly. */
export interface RestorePayload {
  now: number;
  frozen: boolean;
  /** The session hash's fields written as they are, by name (the clock's two are written from `now` with Redis time). */
  f: Record<string, string>;
  /** The created animals as the store keeps them, with their status ('' for none). */
  p: { j: string; s: string }[];
  /** The buckets in order, each as the nine numbers the Lua limiter packs. */
  b: { id: string; v: number[] }[];
  /** Journal entries as "BYTES JSON", oldest first. */
  j: string[];
  /** Each declared operation's count of calls, by operationId. */
  d: Record<string, number>;
}

// The Lua limiter's "no window, no wait, no ban" (NONE in lua-limits.ts).
const NONE = -9e15;

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
