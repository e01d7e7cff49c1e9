// The `--state` URL: one Redis node (a single server, any node of a Cluster, or a managed primary
// endpoint) or a Sentinel group, with TLS and credentials. Parsed here once; shown only through
// `displayUrl`, which hides the password.
import { UserError } from '../core/errors.js';

/** Where the shared state lives, as the client needs it. */
export type StateTarget =
  | { kind: 'node'; host: string; port: number; db: number; tls: boolean; username?: string; password?: string }
  | { kind: 'sentinel'; sentinels: { host: string; port: number }[]; master: string; db: number; tls: boolean; username?: string; password?: string };

const NODE = /^(rediss?):\/\/(?:([^@/]*)@)?([^/?#]+?)(?:\/(\d+))?\/?$/;
const SENTINEL = /^(rediss?)\+sentinel:\/\/(?:([^@/]*)@)?([^/?#]+)\/([^/?#]+)(?:\/(\d+))?\/?$/;

/** The URL with its password replaced by `***`, for every message, log line and answer. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z+]+:\/\/)([^@/]*)@/i, (_all, scheme: string, auth: string) => {
    const colon = auth.indexOf(':');
    return colon < 0 ? `${scheme}${auth}@` : `${scheme}${auth.slice(0, colon + 1)}***@`;
  });
}

function hostPort(text: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}

function credentials(auth: string | undefined): { username?: string; password?: string } {
  if (auth === undefined || auth === '') return {};
  const colon = auth.indexOf(':');
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  if (colon < 0) return { username: decode(auth) };
  const username = auth.slice(0, colon);
  return { ...(username === '' ? {} : { username: decode(username) }), password: decode(auth.slice(colon + 1)) };
}

function mistake(url: string): UserError {
  return new UserError(
    `--state ${JSON.stringify(displayUrl(url)).slice(0, 200)} is not a Redis URL; write --state redis://[USER:PASSWORD@]HOST:PORT/DB ` +
      '(rediss:// for TLS; any node of a Redis Cluster will do) or redis+sentinel://HOST:PORT,HOST:PORT/MASTER_NAME/DB for Sentinel.',
  );
}

/** Reads a `--state` URL; throws a UserError showing the forms it takes. */
export function parseStateUrl(url: string): StateTarget {
  const sentinel = SENTINEL.exec(url);
  if (sentinel) {
    const sentinels = (sentinel[3] as string).split(',').map((part) => hostPort(part, 26379));
    if (sentinels.some((s) => s === undefined)) throw mistake(url);
    return {
      kind: 'sentinel',
      sentinels: sentinels as { host: string; port: number }[],
      master: decodeURIComponent(sentinel[4] as string),
      db: Number(sentinel[5] ?? 0),
      tls: sentinel[1] === 'rediss',
      ...credentials(sentinel[2]),
    };
  }
  const node = NODE.exec(url);
  const where = node ? hostPort(node[3] as string, 6379) : undefined;
  if (!node || !where) throw mistake(url);
  return { kind: 'node', ...where, db: Number(node[4] ?? 0), tls: node[1] === 'rediss', ...credentials(node[2]) };
}
