import type { CoreRequest } from '../types.js';
import type { SessionState } from '../state/session-state.js';
import { STAGES, type HeadInput } from './stages.js';

/**
 * Whether the answer to a request is settled by its head alone, before any is counted: a client
 * sending `Expect: 100-continue` then gets the final answer instead of `100 Continue`, and does not
 * upload a body that would be refused anyway. Nothing is counted here. The stages are walked in
 * their order up to the first that needs the body; anything a stage could not tell from the head
 * gets `100 Continue`.
 */
export function answeredBeforeBody(state: SessionState, req: CoreRequest, now: number): boolean {
  const head: HeadInput = { state, req, now };
  for (const stage of STAGES) {
    if (stage.needsBody) return false;
    if (stage.onHead?.(head) === true) return true;
  }
  return false;
}
