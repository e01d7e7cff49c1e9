// The client audit of a mock in another process or container, read over its admin API: what the
// library's `audit(origin, options)` and `petstore-mock audit` share.
import type { AuditReport } from '../core/audit/audit.js';
import { AuditCouldNotRun } from './could-not-run.js';
import { redactKey } from '../core/state/plans.js';

/** Where to read the audit and what to narrow it to. */
export interface RemoteAuditOptions {
  /** The session (`X-Mock-Session`); the default session when absent. */
  session?: string;
  /** Only this key's requests: the whole key, or the form the journal or findings show. Never printed. */
  key?: string;
  /** The mock's `--admin-token`, sent as a bearer token to the admin API. */
  adminToken?: string;
  /** Milliseconds the answer may take (10 000 by default). */
  timeoutMs?: number;
}

/** `text` with each secret given replaced by its redacted form: a secret given on the command line never reaches the output. */
export function maskSecrets(text: string, ...secrets: (string | undefined)[]): string {
  for (const secret of secrets) if (secret !== undefined && secret !== '') text = text.split(secret).join(redactKey(secret));
  return text;
}

/**
 * The mock's origin from what a person may give: `http://127.0.0.1:4010`, with or without a
 * trailing `/`, `/v1` or `/__admin` (the URLs the banner prints).
 */
export function originOf(given: string): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new AuditCouldNotRun(`${JSON.stringify(given.slice(0, 200))} is not a URL; give the mock's origin, e.g. http://127.0.0.1:4010.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AuditCouldNotRun(`the origin must be an http:// or https:// URL, not ${url.protocol}; e.g. http://127.0.0.1:4010.`);
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/(v1|__admin)$/, '') || '/';
  url.search = '';
  url.hash = '';
  return url;
}

/** Reads `GET /__admin/audit` of the mock at `origin`; rejects with `AuditCouldNotRun` when it cannot. */
export async function fetchAudit(origin: string, options: RemoteAuditOptions = {}): Promise<AuditReport> {
  const base = originOf(origin);
  const target = new URL(`${base.pathname.replace(/\/$/, '')}/__admin/audit`, base);
  if (options.session !== undefined) target.searchParams.set('session', options.session);
  if (options.key !== undefined) target.searchParams.set('key', options.key);
  const shown = `${base.origin}${target.pathname}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.adminToken !== undefined) headers.authorization = `Bearer ${options.adminToken}`;
  const mask = (text: string): string => maskSecrets(text, options.key, options.adminToken);
  let res: Response;
  try {
    res = await fetch(target, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new AuditCouldNotRun(`could not reach ${shown}: ${mask(cause)}. Check that the mock runs there (its banner prints the origin).`);
  }
  const text = await res.text();
  if (res.status !== 200) {
    let said = text.slice(0, 300);
    try {
      said = (JSON.parse(text) as { message?: string }).message ?? said;
    } catch {
      // Not an error body of the mock: shown as it came.
    }
    const hint = res.status === 401 ? " Give the mock's admin token with --admin-token." : res.status === 404 ? ' Is this a petstore-mock origin?' : '';
    throw new AuditCouldNotRun(`${shown} answered ${res.status}: ${mask(said)}${hint}`);
  }
  let report: AuditReport;
  try {
    report = JSON.parse(text) as AuditReport;
  } catch {
    throw new AuditCouldNotRun(`${shown} answered 200 but not with JSON; is this a petstore-mock origin?`);
  }
  if (typeof report?.ok !== 'boolean' || !Array.isArray(report.findings))
    throw new AuditCouldNotRun(`${shown} answered JSON that is not an audit report; is this a petstore-mock of this version or later?`);
  return report;
}
