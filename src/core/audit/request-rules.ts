// The audit rules about what was asked: deprecated-call, call-after-removal and
// repeated-rejected-request. One pass over the entries, oldest first.
import { BODYLESS_METHODS } from '../input/body.js';
import type { JournalEntry } from '../state/journal.js';
import { REJECTED_STATUSES } from './entry-fields.js';
import { deprecatedOperation } from '../pipeline/deprecation.js';
import { SPEC_TABLE, type SpecOperation } from '../pipeline/operations-table.js';
import { finding, keyText, plural, seqList, type AuditFinding, type KeyName } from './findings.js';

const REPLACEMENT = 'GET /v1/pets?status=';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** What a client must change instead of repeating, by status. */
const CHANGE: Record<number, string> = { 400: 'its query or body', 401: 'its key', 404: 'its path or id', 410: 'the operation' };

/** "5 December 2030". */
export function dayText(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** The operation the document marks deprecated that an entry called, or undefined. */
function deprecatedCalled(entry: JournalEntry): SpecOperation | undefined {
  // HEAD is routed as GET; a declared operation at the same path (DELETE, say) is not the deprecated one.
  return entry.code === 'route_not_found' ? undefined : deprecatedOperation(SPEC_TABLE.route(entry.method, entry.path));
}

/**
 * What the answer depended on besides method, target and key, when it can be told: the digest
 * the engine records on rejections; else the recorded details' key and untruncated body; else,
 * for a body-less method with a valid key, nothing. Undefined when it cannot be told.
 */
function requestIdentity(entry: JournalEntry): string | undefined {
  if (entry.digest !== undefined) return `d${entry.digest}`;
  const request = entry.details?.request;
  if (request && request.truncated !== true) return `b${request.headers.authorization ?? ''}\u0000${request.body ?? ''}`;
  if (BODYLESS_METHODS.has(entry.method) && entry.key !== undefined) return '-';
  return undefined;
}

interface Repeat {
  first: JournalEntry;
  later: number[];
}

/** A key's calls of one deprecated operation after its 410. */
interface Removed extends Repeat {
  operation: SpecOperation;
}

/** A key's requests of one deprecated operation. */
interface Calls {
  key: KeyName | undefined;
  operation: SpecOperation;
  seqs: number[];
}

/**
 * deprecated-call, call-after-removal and repeated-rejected-request, oldest first. Keys are told
 * apart by `group` (the whole key's fingerprint) and named by `name`.
 */
export function requestFindings(
  entries: readonly JournalEntry[],
  removalAt: number,
  group: (entry: JournalEntry) => string,
  name: (entry: JournalEntry) => KeyName,
): AuditFinding[] {
  // By key and operation: each deprecated operation a key calls is a finding of its own.
  const deprecated = new Map<string, Calls>();
  const removed = new Map<string, Removed>();
  const rejected = new Map<string, Repeat>();
  const keyOf = (entry: JournalEntry): KeyName | undefined => (entry.key === undefined ? undefined : name(entry));
  for (const entry of entries) {
    const id = entry.key === undefined ? undefined : group(entry);
    const operation = deprecatedCalled(entry);
    if (operation !== undefined) {
      const callsId = id === undefined ? operation.id : `${operation.id}\n${id}`;
      const after = removed.get(callsId);
      if (after) after.later.push(entry.seq);
      else if (entry.code === 'endpoint_removed') removed.set(callsId, { first: entry, later: [], operation });
      else {
        const calls = deprecated.get(callsId);
        if (calls) calls.seqs.push(entry.seq);
        else deprecated.set(callsId, { key: keyOf(entry), operation, seqs: [entry.seq] });
      }
    }
    // A 410 of the removed operation is call-after-removal's; an answer a scenario forced may change.
    if (!REJECTED_STATUSES.has(entry.status) || entry.code === 'endpoint_removed' || entry.truncated || entry.reason.startsWith('scenario ')) continue;
    const identity = requestIdentity(entry);
    if (identity === undefined) continue;
    const repeatId = `${id ?? ''}\n${entry.method} ${entry.path}?${entry.query}\n${entry.status} ${entry.code ?? ''}\n${identity}`;
    const seen = rejected.get(repeatId);
    if (seen) seen.later.push(entry.seq);
    else rejected.set(repeatId, { first: entry, later: [] });
  }

  const out: AuditFinding[] = [];
  const removal = dayText(removalAt);
  for (const { key, operation, seqs } of deprecated.values()) {
    out.push(
      finding(
        'deprecated-call',
        key,
        seqs,
        `${plural(seqs.length, 'request')} with ${keyText(key)} (${seqList(seqs)}) used ${operation.method} ${operation.path}, which the specification deprecates and removes on ${removal}. Move to ${REPLACEMENT} (the replacement it names) before then.`,
      ),
    );
  }
  for (const { first, later, operation } of removed.values()) {
    if (later.length === 0) continue;
    const key = keyOf(first);
    out.push(
      finding(
        'call-after-removal',
        key,
        [first.seq, ...later],
        `after the 410 at #${first.seq} said ${operation.method} ${operation.path} was removed, the client (${keyText(key)}) called it ${plural(later.length, 'more time')} (${seqList(later)}). A 410 is final: the operation was removed on ${removal}; call ${REPLACEMENT} instead.`,
      ),
    );
  }
  for (const { first, later } of rejected.values()) {
    if (later.length === 0) continue;
    const target = `${first.method} ${first.path}${first.query ? `?${first.query}` : ''}`;
    out.push(
      finding(
        'repeated-rejected-request',
        keyOf(first),
        [first.seq, ...later],
        `${target} was sent again unchanged (same key and body) ${plural(later.length, 'time')} (${seqList(later)}) after the ${first.status}${first.code ? ` ${first.code}` : ''} at #${first.seq}, and answered the same. That answer depends only on the request, so repeating it cannot succeed: change ${CHANGE[first.status] ?? 'the request'} instead of retrying.`,
      ),
    );
  }
  return out;
}
