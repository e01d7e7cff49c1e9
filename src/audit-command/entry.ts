// The library's door to the audit of a mock in another process: `audit(origin, options)`.
import type { AuditReport } from '../core/audit/audit.js';
import type { RemoteAuditOptions } from './fetch-audit.js';

/**
 * The client audit of a running mock (another process, a container), read from its admin API:
 * the object `GET /__admin/audit` answers, for `session` (default: the default session) and
 * narrowed to `key`. Rejects with `AuditCouldNotRun` when the mock cannot be reached or refuses.
 */
export async function audit(origin: string, options: RemoteAuditOptions = {}): Promise<AuditReport> {
  const { fetchAudit } = await import('./fetch-audit.js');
  return fetchAudit(origin, options);
}
