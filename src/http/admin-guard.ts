// What every admin call must pass before any route sees it. A developer's mock is reachable from
// every page their browser opens, so the admin API trusts no web page: it grants no CORS, names
// the hosts it answers to (a DNS-rebinding page sends its own name), and takes state changes only
// as application/json, which no cross-site simple request can send.
import type { IncomingHttpHeaders } from 'node:http';
import { MockError } from '../core/errors.js';

/** What the guard needs from the server's options. */
export interface GuardOptions {
  /** The `--host` the server listens on. */
  host: string;
  /** Further names the admin API answers to (`--allow-host`). */
  allowHosts?: readonly string[];
  /** When set, every admin call must carry it (`--admin-token`). */
  adminToken?: string;
}

/** A request as the guard reads it. */
export interface GuardedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The `token` query parameter, which the admin page's links carry. */
  queryToken?: string;
}

const LOOPBACK_NAMES = /^(localhost|[a-z0-9.-]+\.localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|0:0:0:0:0:0:0:1)$/;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A Host header or a host option as one comparable name: lower case, no port, no brackets, no final dot. */
export function hostName(value: string): string {
  let name = value.trim().toLowerCase();
  if (name.startsWith('[')) name = name.slice(1, name.indexOf(']') === -1 ? undefined : name.indexOf(']'));
  else if (name.indexOf(':') === name.lastIndexOf(':')) name = name.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

/**
 * Checks host, token and content type, in that order; throws the MockError to answer with.
 * `checks.token: false` skips the token, for the admin page, which holds no data and asks for it.
 */
export function createAdminGuard(options: GuardOptions): (req: GuardedRequest, checks?: { token?: boolean }) => void {
  const allowed = new Set([options.host, ...(options.allowHosts ?? [])].map(hostName));
  return (req, checks = {}) => {
    const host = req.headers.host;
    // HTTP/1.0 may leave Host out, and Node refuses HTTP/1.1 without it; a browser always sends it.
    if (host !== undefined && !LOOPBACK_NAMES.test(hostName(host)) && !allowed.has(hostName(host))) {
      const shown = JSON.stringify(host.slice(0, 100));
      throw new MockError(
        'admin_host_forbidden',
        `the admin API does not answer to the host ${shown}, so that no web page can reach it through a name of its own; use localhost or 127.0.0.1, or start the mock with --allow-host ${JSON.stringify(hostName(host).slice(0, 100))} (allowHosts in the library) if that name is yours.`,
      );
    }
    if (checks.token !== false && options.adminToken !== undefined && tokenOf(req) !== options.adminToken) {
      throw new MockError('admin_unauthorized', 'this admin API is protected; send "Authorization: Bearer <admin token>" (the value of --admin-token).', {
        headers: { 'WWW-Authenticate': 'Bearer realm="petstore-mock admin"' },
      });
    }
    if (!READS.has(req.method) && !isJson(req.headers['content-type'])) {
      throw new MockError(
        'unsupported_media_type',
        `admin calls that change state take "Content-Type: application/json", even with no body (so that no web page can send them as a form); ${req.method} was sent ${req.headers['content-type'] === undefined ? 'without one' : `as ${JSON.stringify(req.headers['content-type'].slice(0, 60))}`}.`,
      );
    }
  };
}

function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type = ''] = contentType.split(';');
  return type.trim().toLowerCase() === 'application/json';
}

function tokenOf(req: GuardedRequest): string | undefined {
  const auth = req.headers.authorization;
  const match = typeof auth === 'string' ? /^Bearer +(\S+)$/i.exec(auth) : null;
  if (match) return match[1];
  const header = req.headers['x-admin-token'];
  if (typeof header === 'string') return header;
  return req.queryToken;
}
