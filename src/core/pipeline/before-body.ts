import { bodyRefusedByHeaders } from '../input/body.js';
import type { CoreRequest } from '../types.js';
import { keyBucket, type SessionState } from '../state/session-state.js';
import { authenticate } from './auth.js';
import { isPreflight } from './cors.js';
import { tableOf } from './operations-table.js';
import { SPEC_MODULES } from '../operations/index.js';

/**
 * Whether the answer to a request is settled by its head alone, before any is counted: a client
 * sending `Expect: 100-continue` then gets the final answer instead of `100 Continue`, and does not
 * upload a body that would be refused anyway. Nothing is counted here. The checks run in the documented order up to the
 * first that needs the body; anything a check could not tell from the head gets `100 Continue`.
 */
export function answeredBeforeBody(state: SessionState, req: CoreRequest, now: number): boolean {
  if (isPreflight(req.method, req.headers)) return true;
  const where = tableOf(state.settings).route(req.method, req.path);
  // A declared operation reads no body but keeps its size cap: the body is let in and counted.
  if (where.kind === 'declared') return false;
  // Only an operation that reads a body (creating an animal) waits for one; every other route answers without.
  if (where.kind !== 'operation' || !SPEC_MODULES[where.operation].readsBody) return true;
  const auth = authenticate(req.headers, req.rawHeaders, state.keys, req.query);
  if (!auth.ok) return true;
  const report = state.limiter.peek(keyBucket(auth.key.key), auth.key.limits, now);
  if (report.remaining === 0) return true;
  return bodyRefusedByHeaders(req.headers);
}
