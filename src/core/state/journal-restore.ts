// A snapshot's journal entries as a session's journal keeps them: only the fields an entry holds,
// each counted as a live entry's are, within the journal's bounds. Both homes of state use it, so
// a restored journal holds what an answered one would, byte for byte.
import { boundEntry, type JournalEntry } from './journal.js';
import type { KeyIds } from './key-id.js';
import { redactKey } from './plans.js';
import type { KeyConfig } from '../types.js';

/** Every field a journal entry may hold: a restored entry keeps these and no other, so all it holds is counted. */
const ENTRY_FIELDS: readonly (keyof JournalEntry)[] = [
  'seq',
  'at',
  'realAt',
  'arrivalMs',
  'connection',
  'connectionUse',
  'instance',
  'queuedMs',
  'session',
  'method',
  'path',
  'query',
  'truncated',
  'status',
  'code',
  'reason',
  'key',
  'keyId',
  'durationMs',
  'delayMs',
  'fault',
  'retryAfter',
  'retryAfterForm',
  'rateReset',
  'ban',
  'digest',
  'details',
];

/**
 * A snapshot's entries (checked by its schema) as `session`'s journal keeps them within its bounds,
 * as adding them one by one would: each with the fields an entry holds (others are dropped), cut
 * and counted as a live entry is, and of those the newest within `capacity` entries and `maxBytes`.
 * Nothing is changed: the memory home loads the result, the Redis home writes it.
 */
export function restoredEntries(
  entries: readonly JournalEntry[],
  session: string,
  capacity: number,
  maxBytes: number,
): { entry: JournalEntry; bytes: number }[] {
  if (capacity <= 0) return [];
  const kept: { entry: JournalEntry; bytes: number }[] = [];
  let total = 0;
  // Newest first: an entry older than one that does not fit would be dropped before it anyway.
  for (let i = entries.length - 1; i >= 0 && kept.length < capacity; i--) {
    const source = entries[i] as JournalEntry & Record<string, unknown>;
    const entry = {} as Record<string, unknown>;
    for (const field of ENTRY_FIELDS) if (source[field] !== undefined) entry[field] = source[field];
    entry.session = session;
    const bytes = boundEntry(entry as unknown as JournalEntry);
    if (total + bytes > maxBytes) break;
    total += bytes;
    kept.push({ entry: entry as unknown as JournalEntry, bytes });
  }
  return kept.reverse();
}

/**
 * A snapshot's entries with this deployment's key ids. A snapshot of another deployment carries
 * ids salted with that one's salt, which this one cannot know: an id that is none of this
 * deployment's for the session's keys is given the id of the one key that shows as the entry does,
 * or dropped when several keys show alike or none does (filters then take the entry by how it shows).
 */
export function rekeyedEntries(entries: readonly JournalEntry[], keys: readonly KeyConfig[], keyIds: KeyIds): JournalEntry[] {
  const mine = new Set<string>();
  // By how a key shows: its id, or null when two keys show alike.
  const byShown = new Map<string, string | null>();
  for (const { key } of keys) {
    const id = keyIds.of(key);
    mine.add(id);
    const shown = redactKey(key);
    byShown.set(shown, byShown.has(shown) && byShown.get(shown) !== id ? null : id);
  }
  return entries.map((entry) => {
    // Without the key's redacted form nothing tells which key it was: the id stays as it came.
    if (entry.keyId === undefined || entry.key === undefined || mine.has(entry.keyId)) return entry;
    const id = byShown.get(entry.key);
    if (typeof id === 'string') return { ...entry, keyId: id };
    const { keyId: _foreign, ...rest } = entry;
    return rest;
  });
}
