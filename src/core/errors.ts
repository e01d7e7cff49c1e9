/**
 * The one catalogue of error codes the mock answers with. Codes are stable: clients rely on them,
 * and docs/errors.md lists them (a test keeps the list in step). Handlers throw `MockError`;
 * `renderError` (below) is the one place that turns them into responses.
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, summary: 'The request is not valid HTTP/1.1.' },
  invalid_query: { status: 400, summary: 'A query parameter is missing, repeated or out of range.' },
  invalid_path_parameter: { status: 400, summary: 'The `petId` in the path is not an int64 integer.' },
  invalid_json: {
    status: 400,
    summary: 'The body is not well-formed UTF-8 JSON, has duplicate or forbidden keys, or is past a shape limit (depth, keys, items, string or number length).',
  },
  invalid_body: { status: 400, summary: 'The body is JSON but breaks the `NewPet` schema; `details` names each field.' },
  missing_body: { status: 400, summary: 'The request needs a JSON body and has none.' },
  invalid_session: { status: 400, summary: 'The `X-Mock-Session` header is not a usable session id.' },
  missing_api_key: { status: 401, summary: 'No `Authorization: Bearer <key>` header was sent.' },
  malformed_authorization: { status: 401, summary: 'The `Authorization` header is not one `Bearer <key>`.' },
  invalid_api_key: { status: 401, summary: 'The key is not one the mock knows.' },
  revoked_api_key: { status: 401, summary: 'The key was revoked (a scenario says so).' },
  admin_unauthorized: { status: 401, summary: 'The admin API is protected by `--admin-token` and the token was missing or wrong.' },
  admin_host_forbidden: {
    status: 403,
    summary: 'An admin call came with a `Host` that is not a loopback name, an IP address, the `--host` value or an `--allow-host` value.',
  },
  admin_cross_site_forbidden: {
    status: 403,
    summary: 'An admin call came from a web page of another origin, as its `Origin` or `Sec-Fetch-Site` header said.',
  },
  pet_not_found: { status: 404, summary: 'No animal has that id.' },
  route_not_found: { status: 404, summary: 'No operation lives at that path.' },
  method_not_allowed: { status: 405, summary: 'The path exists but not with that method; see the `Allow` header.' },
  request_timeout: { status: 408, summary: "The request did not arrive in full within the server's request timeout." },
  endpoint_removed: { status: 410, summary: 'The deprecated `GET /v1/pets/{petId}` was called on or after its removal date.' },
  payload_too_large: { status: 413, summary: 'The body is larger than 1 MiB (after decompression).' },
  uri_too_long: { status: 414, summary: 'The request target is longer than 8 KiB.' },
  unsupported_media_type: {
    status: 415,
    summary: 'The body is not `application/json` (UTF-8), or its `Content-Encoding` is not gzip, deflate, br or identity.',
  },
  rate_limited: { status: 429, summary: 'The key (or, without a key, the client address) used up its per-minute or per-day quota.' },
  key_banned: { status: 429, summary: 'The key kept sending while rate limited and is banned for a while; wait `Retry-After` seconds.' },
  headers_too_large: { status: 431, summary: 'The request headers are larger than the server accepts.' },
  internal_error: { status: 500, summary: 'A bug in the mock; please report it.' },
  not_implemented: { status: 501, summary: 'The specification mentions store orders but does not define them.' },
  too_many_connections: { status: 503, summary: 'The server holds its maximum number of open connections; close idle ones or retry.' },
  store_full: {
    status: 507,
    summary: "The session's store holds its maximum number or bytes of created animals (or all created animals together reached theirs); reset the session.",
  },
  bad_gateway: { status: 502, summary: 'A scenario forced this answer.' },
  service_unavailable: { status: 503, summary: 'A scenario forced this answer.' },
  gateway_timeout: { status: 504, summary: 'A scenario forced this answer.' },
  state_unavailable: { status: 503, summary: 'The shared state (`--state redis://…`) cannot be reached; wait `Retry-After` seconds.' },
  scenario_invalid: { status: 400, summary: 'An admin call named a scenario that does not exist or is not valid.' },
  admin_invalid_request: { status: 400, summary: 'An admin call had a body the admin API does not understand.' },
  snapshot_invalid: {
    status: 400,
    summary: 'A snapshot to restore is not a `petstore-mock/snapshot` document of version 1; `details` names the first wrong field by JSON pointer.',
  },
  snapshot_unsupported: { status: 501, summary: 'Snapshots and scenario objects are not available in the browser bundle.' },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One offending field of a request, for validation errors. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** A typed error that knows its catalogue code; the engine renders it as the Error body. */
export class MockError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string>; status?: number } = {}) {
    // A MockError is an answer, not a bug: nobody reads its stack, and capturing one cost more than
    // the rest of a refusal (every 429 of a flood, every 507 of a full store).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'MockError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    if (options.details) this.details = options.details;
    if (options.headers) this.headers = options.headers;
  }
}

/** The Error body of the specification, with the optional `details` list. */
export function errorBody(code: string, message: string, status: number, details?: readonly ErrorDetail[]): string {
  const body: { code: string; message: string; status: number; details?: readonly ErrorDetail[] } = { code, message, status };
  if (details && details.length > 0) body.details = details;
  return JSON.stringify(body);
}

/** Where a person reports a bug; the same address as `bugs` in package.json (a test keeps them equal). */
export const ISSUES_URL = 'https://github.com/petstore-mock/petstore-mock/issues';

/** The name every message a person reads starts with. */
export const TOOL_NAME = 'petstore-mock';

/**
 * A message with the tool's name in front: the one place the `petstore-mock: ` prefix is
 * written. Messages are composed without it, and it is added where they leave the program (a
 * thrown error's message, a line on stderr, an admin answer).
 */
export function named(reason: string): string {
  return `${TOOL_NAME}: ${reason}`;
}

/**
 * A mistake the person can fix (a flag, a key spec, a fixtures or scenario file, a library
 * argument). Its `message` names the tool, for library callers that print it; `reason` is the
 * same without the name, for places that add it themselves. The CLI prints any `UserError` as
 * one line and exits 1; anything else is a bug.
 */
export class UserError extends Error {
  /** What went wrong and what to do, without the tool's name. */
  readonly reason: string;

  constructor(reason: string) {
    super(named(reason));
    this.reason = reason;
    // Each subclass names itself with a string: an app's minifier renames classes, and a
    // `new.target.name` would then read `xg` (test/browser/error-names.test.ts keeps them named).
    this.name = 'UserError';
  }
}

/**
 * The headers every answer of the mock carries, API and admin, errors included: never cached, and
 * never read by a browser as anything but JSON (answers echo client input).
 */
export const COMMON_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** A rendered error answer: status, the common headers plus the error's own, and the Error body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The one place an error becomes an answer. A `MockError` keeps its code, status, details and
 * headers; anything else is a bug and becomes `internal_error`. `extraHeaders` are what the front
 * end adds (CORS on the API, rate-limit headers); the error's own headers win over them.
 */
export function renderError(error: unknown, extraHeaders?: Readonly<Record<string, string>>): ErrorAnswer {
  const known = error instanceof MockError ? error : new MockError('internal_error', internalErrorMessage(error));
  const headers: Record<string, string> = { ...COMMON_HEADERS, 'Content-Type': 'application/json', ...extraHeaders, ...known.headers };
  return { status: known.status, headers, body: errorBody(known.code, known.message, known.status, known.details) };
}

/** The message of a 500: a bug in the mock, which the person should report with its request. */
export function internalErrorMessage(error: unknown): string {
  return `${TOOL_NAME} hit an internal error (${(error as Error)?.message ?? String(error)}); please report it at ${ISSUES_URL} with the request that caused it.`;
}
