// What every admin call must pass before any route sees it. A developer's mock is reachable from
// every page their browser opens, so the admin API trusts no web page: it grants no CORS, names
// the hosts it answers to (a DNS-rebinding page sends its own name), and refuses every request a
// browser marks as sent by a page of another origin (`Origin`, `Sec-Fetch-Site`), reads
// included: a no-cors GET or an <img> cannot read the answer, but it can make the mock work.
// Clients that are not browsers send neither header and are not affected.
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { MockError } from '../core/errors.js';
import type { HttpOptions } from './options.js';

const LOOPBACK_NAMES = /^(localhost|[a-z0-9.-]+\.localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|0:0:0:0:0:0:0:1)$/;

/**
 * Whether a host is one the admin API answers to whatever the options say: a loopback name, or an
 * IP address literal (`10.244.1.7:4010`, `[fd00::7]`), which is what kubelet probes, Prometheus'
 * pod discovery and load balancers' checks send. A DNS-rebinding page reaches the mock through a
 * name of its own; an address names no site, so it can be no such name.
 */
function alwaysAnswered(name: string): boolean {
  return LOOPBACK_NAMES.test(name) || isIP(name) !== 0;
}

/** A Host header or a host option as one comparable name: lower case, no port, no brackets, no final dot. */
function hostName(value: string): string {
  let name = value.trim().toLowerCase();
  // An unclosed bracket stays as it is, so that it matches nothing.
  if (name.startsWith('[')) name = name.indexOf(']') === -1 ? name : name.slice(1, name.indexOf(']'));
  else if (name.indexOf(':') === name.lastIndexOf(':')) name = name.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

/** Whether an `Origin` header names the origin the request was sent to (its `Host`); `null` never does. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const page = parsed(origin);
  const self = parsed(`http://${host}`);
  // The scheme is left out: behind a TLS proxy the page is https and the mock sees plain http.
  return (
    page !== undefined &&
    self !== undefined &&
    /^https?:$/.test(page.protocol) &&
    hostName(page.hostname) === hostName(self.hostname) &&
    page.port === self.port
  );
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Why a browser's request came from another origin, or undefined when nothing says so. */
function crossSite(headers: IncomingHttpHeaders): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site: ${site}`;
  const origin = headers.origin;
  if (origin !== undefined && !sameOrigin(origin, headers.host)) return `Origin: ${JSON.stringify(origin.slice(0, 100))}`;
  return undefined;
}

/**
 * Checks host, origin and token, in that order; throws the MockError to answer with. `queryToken`
 * is the `token` query parameter the admin page's links carry; `checkToken` false skips the token,
 * for the admin page, which holds no data and asks for it.
 */
export function createAdminGuard(
  options: Pick<HttpOptions, 'host' | 'allowHosts' | 'adminToken'>,
): (headers: IncomingHttpHeaders, queryToken: string | undefined, checkToken: boolean) => void {
  const allowed = new Set([options.host, ...(options.allowHosts ?? [])].map(hostName));
  return (headers, queryToken, checkToken) => {
    const host = headers.host;
    // HTTP/1.0 may leave Host out, and the server refuses HTTP/1.1 without it; a browser always sends it.
    if (host !== undefined && !alwaysAnswered(hostName(host)) && !allowed.has(hostName(host))) {
      const shown = JSON.stringify(host.slice(0, 100));
      throw new MockError(
        'admin_host_forbidden',
        `the admin API does not answer to the host ${shown}, so that no web page can reach it through a name of its own; use localhost or an IP address such as 127.0.0.1, or start the mock with --allow-host ${JSON.stringify(hostName(host).slice(0, 100))} (allowHosts in the library) if that name is yours.`,
      );
    }
    // Following a link to the page itself (a top-level navigation) is harmless: the page holds no
    // data, and what it then fetches is same-origin.
    const navigation = !checkToken && headers['sec-fetch-dest'] === 'document';
    const foreign = navigation ? undefined : crossSite(headers);
    if (foreign !== undefined) {
      throw new MockError(
        'admin_cross_site_forbidden',
        `the admin API answers no web page of another origin (this request came with ${foreign}); open the admin page itself at /__admin/, or call the admin API from a script, curl or the library.`,
      );
    }
    if (checkToken && options.adminToken !== undefined && tokenOf(headers, queryToken) !== options.adminToken) {
      throw new MockError('admin_unauthorized', 'this admin API is protected; send "Authorization: Bearer <admin token>" (the value of --admin-token).', {
        headers: { 'WWW-Authenticate': 'Bearer realm="petstore-mock admin"' },
      });
    }
  };
}

function tokenOf(headers: IncomingHttpHeaders, queryToken: string | undefined): string | undefined {
  const auth = headers.authorization;
  const match = typeof auth === 'string' ? /^Bearer +(\S+)$/i.exec(auth) : null;
  if (match) return match[1];
  const header = headers['x-admin-token'];
  if (typeof header === 'string') return header;
  return queryToken;
}
