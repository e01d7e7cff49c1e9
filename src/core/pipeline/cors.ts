import type { HeaderBag } from '../types.js';

/** Headers a browser page may read from any answer. */
const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'Location',
  'WWW-Authenticate',
  'Allow',
  'X-Mock-Session',
  'X-Mock-Session-Evicted',
].join(', ');
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Content-Encoding', 'X-Mock-Session'];

/** Adds the CORS headers every API answer carries, errors included. */
export function addCorsHeaders(headers: Record<string, string>, requestHeaders: HeaderBag): void {
  headers['Access-Control-Allow-Origin'] = '*';
  if (requestHeaders.origin !== undefined) headers['Access-Control-Expose-Headers'] = EXPOSED;
}

/** True for a CORS preflight: OPTIONS with an Origin and the method it asks about. */
export function isPreflight(method: string, headers: HeaderBag): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/** The headers of a preflight answer; it needs no key. */
export function preflightHeaders(allow: string, requestHeaders: HeaderBag): Record<string, string> {
  const asked = requestHeaders['access-control-request-headers'];
  const askedList = (Array.isArray(asked) ? asked.join(',') : (asked ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter((h) => /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(h));
  const allowHeaders = [...new Set([...ALLOWED_HEADERS, ...askedList])].join(', ');
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': allow,
    'Access-Control-Allow-Headers': allowHeaders,
    'Access-Control-Max-Age': '600',
    Allow: allow,
  };
}
