import { MockError } from '../errors.js';

/** The longest request target (path and query) the mock reads. */
export const MAX_TARGET_BYTES = 8 * 1024;

/** The 414 of a request target past `MAX_TARGET_BYTES`, for both adapters. */
export function targetTooLong(length: number): MockError {
  return new MockError('uri_too_long', `The request target is ${length} bytes long; the limit is ${MAX_TARGET_BYTES}. Shorten the query.`);
}
