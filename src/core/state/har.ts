// A session's journal as an HTTP Archive (HAR 1.2): the file QA attaches to a bug report, that
// Chrome's DevTools opens and Playwright's routeFromHAR replays. Built from journal entries only,
// so every front end (server, fetch handler, shared state) gives the same file.
import type { JournalEntry } from './journal.js';
import type { JournalMessage } from './journal-details.js';

declare const __PETSTORE_VERSION__: string;

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: [];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: { mimeType: string; text: string };
  headersSize: -1;
  bodySize: number;
  comment?: string;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: [];
  headers: HarNameValue[];
  content: { size: number; mimeType: string; text?: string; comment?: string };
  redirectURL: string;
  headersSize: -1;
  bodySize: number;
  comment?: string;
}

/** One journal entry; fields of the mock's own start with `_`, as HAR allows. */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment: string;
  _seq: number;
  _session: string;
  _code?: string;
  _key?: string;
  _realAt?: string;
  _fault?: string;
  _ban?: unknown;
}

/** An HTTP Archive, `{ log: { version: '1.2', creator, entries } }`. */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment: string;
    entries: HarEntry[];
  };
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  507: 'Insufficient Storage',
};

const NOT_RECORDED =
  'Headers and bodies were not recorded for this request: PUT /__admin/journal {"details": true} (or mock.recordDetails()) records the next ones.';

function pairs(headers: Record<string, string>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function header(message: JournalMessage | undefined, name: string): string | undefined {
  return message?.headers[name] ?? Object.entries(message?.headers ?? {}).find(([n]) => n.toLowerCase() === name)?.[1];
}

function cut(message: JournalMessage): string | undefined {
  return message.truncated ? `The body is cut to its first 4 KiB of ${message.bodyBytes ?? '?'} bytes, as the journal keeps it.` : undefined;
}

function harEntry(e: JournalEntry, origin: string): HarEntry {
  const sent = e.details?.request;
  const answered = e.details?.response;
  const url = `${origin}${e.path}${e.query ? `?${e.query}` : ''}`;
  const request: HarRequest = {
    method: e.method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: sent ? pairs(sent.headers) : [],
    queryString: [...new URLSearchParams(e.query)].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: sent ? (sent.bodyBytes ?? 0) : -1,
  };
  if (sent?.body !== undefined) request.postData = { mimeType: header(sent, 'content-type') ?? '', text: sent.body };
  const requestCut = sent && cut(sent);
  if (requestCut) request.comment = requestCut;
  const mimeType = header(answered, 'content-type') ?? (e.status === 204 || e.method === 'HEAD' ? '' : 'application/json');
  const response: HarResponse = {
    status: e.status,
    statusText: STATUS_TEXT[e.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: answered ? pairs(answered.headers) : [],
    content: answered
      ? { size: answered.bodyBytes ?? 0, mimeType, ...(answered.body !== undefined ? { text: answered.body } : {}) }
      : { size: -1, mimeType, comment: NOT_RECORDED },
    redirectURL: header(answered, 'location') ?? '',
    headersSize: -1,
    bodySize: answered ? (answered.bodyBytes ?? 0) : -1,
  };
  const responseCut = answered && cut(answered);
  if (responseCut) response.comment = responseCut;
  const wait = e.durationMs + (e.delayMs ?? 0);
  const entry: HarEntry = {
    startedDateTime: e.at,
    time: wait,
    request,
    response,
    cache: {},
    timings: { send: 0, wait, receive: 0 },
    comment: `${e.code ? `${e.code}: ` : ''}${e.reason}`,
    _seq: e.seq,
    _session: e.session,
  };
  if (e.code) entry._code = e.code;
  if (e.key) entry._key = e.key;
  if (e.realAt) entry._realAt = e.realAt;
  if (e.fault) entry._fault = e.fault;
  if (e.ban !== undefined) entry._ban = e.ban;
  return entry;
}

/**
 * The entries as HAR 1.2, their URLs on `origin` (e.g. http://127.0.0.1:4010). Times are the
 * session clock's, as in the journal; keys stay redacted; a body the journal cut at 4 KiB stays cut
 * and says so. Entries recorded without details carry no headers or bodies, and say why.
 */
export function toHar(entries: readonly JournalEntry[], origin: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'petstore-mock', version: typeof __PETSTORE_VERSION__ === 'string' ? __PETSTORE_VERSION__ : '0.0.0' },
      comment: 'Times are on the session clock of petstore-mock; API keys are redacted.',
      entries: entries.map((e) => harEntry(e, origin)),
    },
  };
}
