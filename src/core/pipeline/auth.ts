import { redactKey } from '../state/plans.js';
import { MockError } from '../errors.js';
import type { HeaderBag, KeyConfig } from '../types.js';

export const WWW_AUTHENTICATE = 'Bearer realm="petstore"';
export const WWW_AUTHENTICATE_INVALID = 'Bearer realm="petstore", error="invalid_token"';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Query parameters a client may have put a key in; the journal and the log redact their values. */
const QUERY_KEY_NAMES = '(^|&)(api_key|apikey|api-key|key|token|access_token|auth|authorization)=';
const QUERY_KEY = new RegExp(QUERY_KEY_NAMES, 'i');
const QUERY_KEY_VALUE = new RegExp(`${QUERY_KEY_NAMES}([^&]*)`, 'gi');

/**
 * A query string with the values of key-like parameters redacted, for the journal and the log:
 * a key sent in the wrong place is still a key.
 */
export function redactQuery(query: string): string {
  if (!QUERY_KEY.test(query)) return query;
  return query.replace(
    QUERY_KEY_VALUE,
    (_all, sep: string, name: string, value: string) => `${sep}${name}=${encodeURIComponent(redactKey(safeDecode(value)))}`,
  );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** What the Authorization header says: a key the mock knows, or why it cannot be used. */
export type AuthResult = { ok: true; key: KeyConfig } | { ok: false; error: MockError };

/** Counts how many times a header was sent; Node keeps only the first Authorization. */
function countHeader(rawHeaders: readonly string[] | undefined, name: string): number {
  if (!rawHeaders) return 1;
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i];
    if (raw !== undefined && raw.length === name.length && raw.toLowerCase() === name) n++;
  }
  return n;
}

/**
 * Checks the bearer key: the scheme is matched case-insensitively and the key exactly. Keys in
 * the query string are not accepted (the specification wants the header), and the message says so.
 */
export function authenticate(headers: HeaderBag, rawHeaders: readonly string[] | undefined, keys: ReadonlyMap<string, KeyConfig>, query: string): AuthResult {
  const header = headers.authorization;
  if (header === undefined || header === '') {
    const hint = QUERY_KEY.test(query) ? ' Keys in the query string are not accepted; send the header instead.' : '';
    return fail('missing_api_key', `No API key was sent. Send the header "Authorization: Bearer <API_KEY>", for example Bearer demo-free.${hint}`, false);
  }
  if (Array.isArray(header) || countHeader(rawHeaders, 'authorization') > 1) {
    return fail('malformed_authorization', 'The Authorization header was sent more than once; send exactly one "Authorization: Bearer <API_KEY>".', true);
  }
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) {
    return fail(
      'malformed_authorization',
      'The Authorization header must be "Bearer <API_KEY>": the Bearer scheme and one key of letters, digits and -._~+/.',
      true,
    );
  }
  const key = keys.get(token);
  if (!key) return fail('invalid_api_key', `The API key ${redactKey(token)} is not valid. Use one of the keys printed at start, such as demo-free.`, true);
  if (key.revoked) return fail('revoked_api_key', `The API key ${redactKey(key.key)} has been revoked. Use another key.`, true);
  return { ok: true, key };
}

function fail(code: 'missing_api_key' | 'malformed_authorization' | 'invalid_api_key' | 'revoked_api_key', message: string, keySent: boolean): AuthResult {
  const headers = { 'WWW-Authenticate': keySent ? WWW_AUTHENTICATE_INVALID : WWW_AUTHENTICATE };
  return { ok: false, error: new MockError(code, message, { headers }) };
}

export { redactKey } from '../state/plans.js';
