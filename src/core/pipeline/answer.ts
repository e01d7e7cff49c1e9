// The one place an API answer is built: its headers in their order, and its journal entry. Every
// home of state hands the decision it took here, so the two cannot drift apart.
import { addDigest } from '../audit/entry-fields.js';
import { httpDate } from '../state/clock.js';
import { addCorsHeaders } from './cors.js';
import { COMMON_HEADERS } from '../errors.js';
import { redactQuery } from './auth.js';
import { isoTime, noteRefusal, type JournalEntry } from '../state/journal.js';
import { captureDetails } from '../state/journal-details.js';
import { setRateHeaders, type BanCount, type RateReport } from '../state/limiter.js';
import type { CoreRequest, CoreResponse } from '../types.js';
import type { Outcome } from './outcome.js';

const JSON_TYPE = 'application/json';

/** What the answer of one request is made of, whatever home of state decided it. */
export interface AnswerParts {
  req: CoreRequest;
  session: string;
  /** The session clock's instant the request was decided at, and the real time then. */
  now: number;
  real: number;
  /** The rate-limit report the answer shows. */
  shown: RateReport;
  outcome: Outcome;
  /** The valid key sent, redacted, and its fingerprint. */
  key?: string;
  keyId?: string;
  extraHeaders?: Record<string, string>;
  /** When an earlier state of this session was dropped to make room; said once. */
  evictedAt?: string;
  ban?: BanCount;
  /** Whether the session's journal records headers and bodies. */
  details: boolean;
  /** The session's `retryAfterFormat`. */
  retryAfterForm?: 'seconds' | 'http-date';
}

/** Rewrites a `Retry-After` in seconds as the instant it names on the session clock (RFC 9110 IMF-fixdate). */
function asHttpDate(headers: Record<string, string>, now: number): void {
  const retry = headers['Retry-After'];
  if (retry !== undefined && /^\d+$/.test(retry)) headers['Retry-After'] = httpDate(now + Number(retry) * 1000);
}

/** The answer's headers: Date first, then the common ones, rate limits, extras, CORS and the session. */
export function answerHeaders(p: AnswerParts): Record<string, string> {
  // Date reads the session's clock, so Reset − Date equals Retry-After for clients that compute waits.
  // It also comes first on purpose: on Node 20 an object that begins as a spread copy and then
  // grows leaves V8's fast path (measured here: 8 µs per answer against 0.12 µs).
  const headers: Record<string, string> = { Date: httpDate(p.now), ...COMMON_HEADERS };
  const { outcome, req } = p;
  if (outcome.body !== undefined) headers['Content-Type'] = JSON_TYPE;
  setRateHeaders(headers, p.shown, outcome.status === 429);
  if (p.extraHeaders) Object.assign(headers, p.extraHeaders);
  if (outcome.headers) Object.assign(headers, outcome.headers);
  if (p.retryAfterForm === 'http-date') asHttpDate(headers, p.now);
  addCorsHeaders(headers, req.headers);
  if (typeof req.headers['x-mock-session'] === 'string' && p.session !== 'default') headers['X-Mock-Session'] = p.session;
  if (p.evictedAt !== undefined) headers['X-Mock-Session-Evicted'] = p.evictedAt;
  return headers;
}

/** The journal entry of an answer, without its sequence number's meaning: the home gives it. */
export function journalEntryOf(p: AnswerParts, headers: Record<string, string>, seq: number, durationMs: number): JournalEntry {
  const { req, outcome, now } = p;
  const entry: JournalEntry = {
    seq,
    at: isoTime(now),
    session: p.session,
    method: req.method,
    path: req.path,
    query: redactQuery(req.query),
    status: outcome.status,
    reason: outcome.reason,
    durationMs,
  };
  if (outcome.code) entry.code = outcome.code;
  if (p.real !== now) entry.realAt = new Date(p.real).toISOString();
  if (p.key !== undefined) {
    entry.key = p.key;
    entry.keyId = p.keyId;
  }
  if (outcome.fault) entry.fault = outcome.fault;
  if (outcome.delayMs) entry.delayMs = outcome.delayMs;
  if (outcome.status === 429 || outcome.status === 503) noteRefusal(entry, headers, p.ban);
  addDigest(entry, req);
  if (p.details) entry.details = captureDetails(req, headers, outcome.body);
  return entry;
}

/** The response the adapters write out. */
export function responseOf(outcome: Outcome, headers: Record<string, string>): CoreResponse {
  const response: CoreResponse = { status: outcome.status, headers };
  if (outcome.body !== undefined) response.body = outcome.body;
  if (outcome.fault) response.fault = outcome.fault;
  if (outcome.delayMs) response.delayMs = outcome.delayMs;
  return response;
}
