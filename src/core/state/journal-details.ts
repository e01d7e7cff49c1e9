import { redactKey } from './plans.js';
import type { CoreRequest } from '../types.js';
import { ownString } from './budget.js';

/** The most bytes of a body an entry keeps; past it the body is cut and marked truncated. */
export const MAX_DETAIL_BODY_BYTES = 4096;
/** The most headers an entry keeps of a request (a request may send thousands). */
const MAX_DETAIL_HEADERS = 64;
/** Header values an entry never shows whole: they carry credentials. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-admin-token', 'x-api-key']);

/** What was sent or answered, as far as an entry keeps it. */
export interface JournalMessage {
  headers: Record<string, string>;
  /** The body as UTF-8 text, cut at 4 KiB; a compressed body is described, not shown. */
  body?: string;
  /** The body's full size in bytes. */
  bodyBytes?: number;
  /** True when `body` is only the first 4 KiB. */
  truncated?: true;
}

/** The request's and the answer's headers and bodies, kept when a session records details. */
export interface JournalDetails {
  request: JournalMessage;
  response: JournalMessage;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cuts text to the byte bound; the copy is fresh, so a kept entry never pins a large body. */
function boundText(bytes: Uint8Array): { body: string; truncated?: true } {
  if (bytes.length <= MAX_DETAIL_BODY_BYTES) return { body: decoder.decode(bytes) };
  // A multi-byte character cut in half decodes as U+FFFD; drop it rather than show a wrong one.
  return { body: decoder.decode(bytes.subarray(0, MAX_DETAIL_BODY_BYTES)).replace(/\uFFFD$/, ''), truncated: true };
}

function redactHeader(name: string, value: string): string {
  // A cut value is copied: a slice would keep the whole (up to 16 KiB) header alive in the journal.
  if (!SECRET_HEADERS.has(name)) return value.length > 1024 ? ownString(`${value.slice(0, 1024)}…`) : value;
  // "Bearer" is six characters; the scheme keeps the case it was sent in.
  return /^Bearer +\S+$/i.test(value) ? `${value.slice(0, 6)} ${redactKey(value.slice(6).trimStart())}` : redactKey(value);
}

function requestHeaders(req: CoreRequest): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (++count > MAX_DETAIL_HEADERS) break;
    out[name] = redactHeader(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/** Captures the request and the answer for an entry, bounded and with credentials redacted. */
export function captureDetails(req: CoreRequest, headers: Record<string, string>, body: string | undefined): JournalDetails {
  const request: JournalMessage = { headers: requestHeaders(req) };
  if (req.bodyTooLarge) {
    request.body = '';
    request.truncated = true;
  } else if (req.body && req.body.length > 0) {
    request.bodyBytes = req.body.length;
    const encoding = req.headers['content-encoding'];
    if (typeof encoding === 'string' && !['', 'identity'].includes(encoding.trim().toLowerCase()))
      request.body = `(${req.body.length} bytes, ${encoding.trim()})`;
    else Object.assign(request, boundText(req.body));
  }
  const response: JournalMessage = { headers: { ...headers } };
  if (body !== undefined) {
    const bytes = encoder.encode(body);
    response.bodyBytes = bytes.length;
    Object.assign(response, boundText(bytes));
  }
  return { request, response };
}

/** Heap per kept header or body beyond its characters: the property, the string header. */
const PART_OVERHEAD = 48;

function messageBytes(m: JournalMessage): number {
  let bytes = PART_OVERHEAD * 2;
  for (const [name, value] of Object.entries(m.headers)) bytes += PART_OVERHEAD + 2 * (name.length + value.length);
  if (m.body !== undefined) bytes += PART_OVERHEAD + 2 * m.body.length;
  return bytes;
}

/** An estimate of the heap a recorded entry's details hold (two bytes a character, at worst), for the journal's byte bound. */
export function detailsBytes(details: JournalDetails): number {
  return messageBytes(details.request) + messageBytes(details.response);
}
