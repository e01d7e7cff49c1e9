// What the key-id tests of both homes share: a request with a key in a session, the session's
// journal (whole, or as a key filter takes it), and the check that two deployments salt apart.
import { expect } from 'vitest';
import { keyIdOf, sha256Hex } from '../../src/core/state/key-id.js';
import type { JournalEntry } from '../../src/core/state/journal.js';
import { adminCall } from './admin.js';

/** GET /v1/pets?limit=1 with `key` in `session`, its body read. */
export function listAs(mock: { url: string }, key: string, session: string): Promise<ArrayBuffer> {
  return fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}`, 'x-mock-session': session } }).then((r) => r.arrayBuffer());
}

/** The session's journal over the admin API; with `key`, what `?key=` takes. */
export async function journalOf(mock: { origin: string }, session: string, key?: string): Promise<JournalEntry[]> {
  return (await adminCall<JournalEntry[]>(mock.origin, `requests${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`, { session })).json;
}

/** Two deployments' ids of `keys` (in order): each an id, no key the same id in both, none unsalted. */
export function expectSaltedApart(ids: string[], others: string[], keys: string[]): void {
  expect(ids).toHaveLength(keys.length);
  for (const id of [...ids, ...others]) expect(id).toMatch(/^[0-9a-f]{8}$/);
  expect(ids.filter((id, i) => id === others[i])).toEqual([]);
  for (const [i, key] of keys.entries()) {
    expect([ids[i], others[i]]).not.toContain(sha256Hex(key).slice(0, 8));
    expect([ids[i], others[i]]).not.toContain(keyIdOf(key, ''));
  }
}
