import type { AdminState } from '../core/state/backend.js';

// The options both HTTP modules read; kept apart so the admin API and the server import no
// each other.

/** Options of the HTTP server around a core engine. */
export interface HttpOptions {
  port: number;
  host: string;
  /** When set, every admin call must send `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** What the admin API reads and changes: the sessions of the state engine and the scenarios. */
  admin: AdminState;
}
