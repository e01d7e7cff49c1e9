// The admin API of a mock in another process, as plain calls: JSON in, JSON out, the session named
// by `X-Mock-Session`, the admin token as a bearer token. An answer other than 2xx becomes an Error
// carrying the mock's own message.
import { UserError, named, type ErrorCode } from '../core/errors.js';

/** An admin API refusal (4xx) as the library throws it: the mock's message, its code and status. */
export class AdminCallError extends UserError {
  constructor(
    reason: string,
    readonly code: ErrorCode | string,
    readonly status: number,
  ) {
    super(reason);
    this.name = 'AdminCallError';
  }
}

/** How one admin call is made. */
export interface AdminCall {
  method?: 'GET' | 'POST' | 'PUT';
  session?: string;
  query?: Record<string, string>;
  body?: unknown;
}

const PREFIX = named('');

/** Calls the admin API of the mock at `origin`; resolves to the parsed JSON answer. */
export type AdminClient = <T>(path: string, call?: AdminCall) => Promise<T>;

/** The admin client of the mock at `origin` (e.g. http://127.0.0.1:4010), with its admin token if it has one. */
export function adminClient(origin: string, adminToken: string | undefined): AdminClient {
  return async <T>(path: string, call: AdminCall = {}): Promise<T> => {
    const url = new URL(`${origin}/__admin/${path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.session !== undefined) headers['x-mock-session'] = call.session;
    if (adminToken !== undefined) headers.authorization = `Bearer ${adminToken}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const method = call.method ?? 'GET';
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new Error(named(`could not reach the mock's admin API at ${origin} (${cause}); is the mock running there, and is this its origin?`));
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new Error(named(`${method} ${url.pathname} at ${origin} answered ${res.status} with something other than JSON; is this a petstore-mock?`));
    }
    if (res.ok) return json as T;
    const body = (json ?? {}) as { code?: unknown; message?: unknown };
    const message = typeof body.message === 'string' ? body.message : `${method} ${url.pathname} answered ${res.status}`;
    const reason = message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
    if (res.status >= 500) throw new Error(named(reason));
    throw new AdminCallError(reason, typeof body.code === 'string' ? body.code : 'admin_invalid_request', res.status);
  };
}
