import { UserError, named } from '../errors.js';
import { redactKey } from './plans.js';
import { parseInstant } from './clock.js';
import { compileGlob } from './glob.js';
import type { KeyIds } from './key-id.js';
import type { JournalEntry } from './journal.js';

/**
 * Which journal entries to list or count. Every field narrows; an empty filter takes everything.
 * `GET /__admin/requests` takes the same names as query parameters.
 */
export interface JournalFilter {
  /** The method, any case: `POST`. */
  method?: string;
  /** The path; `*` stands for any run of characters: `/v1/pets/*`. */
  path?: string;
  /** A status (`429`) or a class of them (`4xx`). */
  status?: number | string;
  /** An error code of the catalogue: `rate_limited`. */
  code?: string;
  /** The key: whole (told apart from keys that redact alike), as the journal shows it redacted, or as the audit shows it (`work…001 #3fa2c1d0`). */
  key?: string;
  /** Only requests at or after this instant of the session's clock. */
  since?: Date | string | number;
}

/** One field of a filter, checked and turned into a test. */
export interface Criterion {
  /** How the filter reads in a message: `method POST`. */
  shown: string;
  test(entry: JournalEntry): boolean;
}

/** A filter that cannot be used; the message says which field and what it takes. */
export class JournalFilterError extends UserError {
  override name = 'JournalFilterError';
}

/** The names a filter has, in the order messages show them. */
export const FILTER_FIELDS = ['method', 'path', 'status', 'code', 'key', 'since'] as const;

function statusTest(value: number | string): (status: number) => boolean {
  const text = String(value).trim();
  if (/^[1-5]\d\d$/.test(text)) return (status) => status === Number(text);
  if (/^[1-5]xx$/i.test(text)) {
    const hundred = Number(text[0]);
    return (status) => Math.floor(status / 100) === hundred;
  }
  throw new JournalFilterError(`the journal filter status must be a status such as 429 or a class such as 4xx, not ${JSON.stringify(text.slice(0, 40))}.`);
}

function instantOf(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : (parseInstant(value) ?? NaN);
  if (!Number.isFinite(ms))
    throw new JournalFilterError(
      `the journal filter since must be an ISO-8601 instant such as 2030-12-05T00:00:00Z (or a Date), not ${JSON.stringify(String(value).slice(0, 40))}.`,
    );
  return ms;
}

function criteria(filter: JournalFilter, keyIds: KeyIds | undefined): Criterion[] {
  const out: Criterion[] = [];
  if (filter.method !== undefined && filter.method !== '') {
    const method = filter.method.toUpperCase();
    out.push({ shown: `method ${method}`, test: (e) => e.method === method });
  }
  if (filter.path !== undefined && filter.path !== '') {
    // Linear in the path, whatever the pattern: the filter is user input (see glob.ts).
    const pattern = compileGlob(filter.path);
    out.push({ shown: `path ${filter.path}`, test: (e) => pattern.test(e.path) });
  }
  if (filter.status !== undefined && filter.status !== '') {
    const test = statusTest(filter.status);
    out.push({ shown: `status ${filter.status}`, test: (e) => test(e.status) });
  }
  if (filter.code !== undefined && filter.code !== '') {
    const code = filter.code;
    out.push({ shown: `code ${code}`, test: (e) => e.code === code });
  }
  if (filter.key !== undefined && filter.key !== '') {
    const key = keyMatcher(filter.key, keyIds);
    out.push({ shown: `key ${key.shown}`, test: key.test });
  }
  if (filter.since !== undefined && filter.since !== '') {
    const since = instantOf(filter.since);
    out.push({ shown: `since ${new Date(since).toISOString()}`, test: (e) => Date.parse(e.at) >= since });
  }
  return out;
}

const LABELLED = /^(.*) #([0-9a-f]{8})$/;

/**
 * Which entries a key filter takes. A whole key takes its own requests by `keyId`, the deployment's
 * (`keyIds`; entries without one, and every entry when no deployment is named, by the redacted
 * form); a redacted form (`work…001`) takes every key that shows so; a form with its id
 * (`work…001 #3fa2c1d0`) takes that key alone.
 */
export function keyMatcher(key: string, keyIds: KeyIds | undefined): Criterion {
  const labelled = LABELLED.exec(key);
  if (labelled && (labelled[1]!.includes('…') || labelled[1] === '****')) {
    const id = labelled[2]!;
    return { shown: key, test: (e) => e.keyId === id };
  }
  if (key.includes('…') || key === '****') return { shown: key, test: (e) => e.key === key };
  const redacted = redactKey(key);
  if (keyIds === undefined) return { shown: redacted, test: (e) => e.key === redacted };
  const id = keyIds.of(key);
  return { shown: redacted, test: (e) => (e.keyId === undefined ? e.key === redacted : e.keyId === id) };
}

/** A compiled filter: which entries match, which nearly do, and how it reads. */
export interface JournalQuery {
  matches(entry: JournalEntry): boolean;
  /** True when the entry fails exactly one of several criteria: the requests a failed verify shows. */
  nearMiss(entry: JournalEntry): boolean;
  /** The filter in words, `POST /v1/pets` style: `method POST, path /v1/pets`. */
  describe(): string;
}

/** Checks a filter once (throws `JournalFilterError` for a bad status or instant). */
export function compileFilter(filter: JournalFilter = {}, keyIds?: KeyIds): JournalQuery {
  const tests = criteria(filter, keyIds);
  return {
    matches: (entry) => tests.every((c) => c.test(entry)),
    nearMiss: (entry) => tests.length > 1 && tests.filter((c) => !c.test(entry)).length === 1,
    describe: () => (tests.length === 0 ? 'any request' : tests.map((c) => c.shown).join(', ')),
  };
}

/** One line per entry, as verify messages show them. */
export function entryLine(entry: JournalEntry): string {
  const query = entry.query ? `?${entry.query}` : '';
  const key = entry.key ? ` key ${entry.key}` : '';
  return `#${entry.seq} ${entry.at} ${entry.method} ${entry.path}${query} → ${entry.status}${entry.code ? ` ${entry.code}` : ''}${key}`;
}

/** How many requests a verify expects: exactly n, or a range. */
export type VerifyCount = number | { atLeast?: number; atMost?: number };

const SHOWN = 10;

/**
 * Checks how many journal entries match; returns them, or throws an Error listing the matching
 * requests and the near misses (those that fail one criterion only), so a failed test says why.
 */
export function verifyEntries(entries: readonly JournalEntry[], filter: JournalFilter, count: VerifyCount = { atLeast: 1 }, keyIds?: KeyIds): JournalEntry[] {
  const query = compileFilter(filter, keyIds);
  const matching = entries.filter((e) => query.matches(e));
  const { atLeast, atMost } = typeof count === 'number' ? { atLeast: count, atMost: count } : count;
  if ((atLeast === undefined || matching.length >= atLeast) && (atMost === undefined || matching.length <= atMost)) return matching;
  const wanted =
    atLeast === atMost
      ? `exactly ${atLeast}`
      : [atLeast !== undefined ? `at least ${atLeast}` : '', atMost !== undefined ? `at most ${atMost}` : ''].filter(Boolean).join(' and ');
  const near = entries.filter((e) => query.nearMiss(e));
  const lines = [
    named(
      `expected ${wanted} request${(atMost ?? atLeast) === 1 && (atLeast ?? 1) === 1 ? '' : 's'} matching ${query.describe()}, but the journal has ${matching.length}.`,
    ),
  ];
  lines.push(...section('Matching', matching), ...section('Near misses (one criterion off)', near));
  if (matching.length === 0 && near.length === 0)
    lines.push(
      `The journal holds ${entries.length} request${entries.length === 1 ? '' : 's'}; check the filter, the session (X-Mock-Session) and that the requests reached this mock.`,
    );
  throw new Error(lines.join('\n'));
}

function section(title: string, entries: readonly JournalEntry[]): string[] {
  if (entries.length === 0) return [];
  const shown = entries.slice(-SHOWN).map((e) => `  ${entryLine(e)}`);
  const more = entries.length > SHOWN ? [`  … and ${entries.length - SHOWN} earlier`] : [];
  return [`${title}:`, ...more, ...shown];
}
