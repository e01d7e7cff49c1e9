// The one failure of reading a remote audit, apart so the library exports it without loading the reader.
import { named } from '../core/errors.js';

/** The audit could not be read: the mock is unreachable, refused the call, or answered something else. */
export class AuditCouldNotRun extends Error {
  constructor(message: string) {
    super(named(message));
    this.name = 'AuditCouldNotRun';
  }
}
