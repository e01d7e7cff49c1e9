// The journal field the client audit reads besides `retryAfter` and `ban`, filled in where the
// pipeline builds an answer's entry (core/pipeline/answer.ts), so the audit never needs the optional
// details recorded.
import { redactKey } from '../pipeline/auth.js';
import type { JournalEntry } from '../state/journal.js';
import type { CoreRequest } from '../types.js';

/** Answers a repeat of the same request cannot change; only these entries carry a digest. */
export const REJECTED_STATUSES: ReadonlySet<number> = new Set([400, 401, 404, 410]);

const encoder = new TextEncoder();

/** FNV-1a over bytes, continuing from `hash`: cheap, and enough to tell requests apart within one journal. */
function fnv1a(bytes: Uint8Array, hash: number): number {
  let h = hash;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The digest of what a rejection depended on besides method and target: the presented key and
 * the body. The key is redacted before hashing, so the journal never holds a hash of a secret
 * that could be checked against guesses; two wrong keys that redact alike are taken as one.
 */
export function requestDigest(req: CoreRequest): string {
  const authorization = req.headers.authorization;
  const presented = typeof authorization === 'string' ? authorization.trim() : '';
  const token = /^Bearer +(\S+)$/i.exec(presented)?.[1];
  const credential = token !== undefined ? `Bearer ${redactKey(token)}` : presented === '' ? '' : redactKey(presented);
  let hash = fnv1a(encoder.encode(credential), 0x811c9dc5);
  hash = fnv1a(Uint8Array.of(0), hash);
  const body = req.bodyTooLarge ? undefined : req.body;
  if (body) hash = fnv1a(body, hash);
  return `${hash.toString(16).padStart(8, '0')}-${body ? body.length : 0}`;
}

/**
 * Adds `digest` to the entry of a rejection, and of every POST (a create sent again unchanged is
 * what unsafe-create-retry looks for): built with every entry, in each home of state.
 */
export function addDigest(entry: Pick<JournalEntry, 'status' | 'digest' | 'method'>, req: CoreRequest): void {
  if (REJECTED_STATUSES.has(entry.status) || entry.method === 'POST') entry.digest = requestDigest(req);
}
