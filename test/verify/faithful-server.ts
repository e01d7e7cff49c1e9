// A hand-made implementation of the Animal Store API on node:http, written from the specification
// alone (no code of the mock), so that verify is held against a second, independent reading of it.
// Its clock is virtual: verify's wait advances it. `deviate` lets a test break one thing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server read it. */
export interface Asked {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The bearer token, or undefined without one. */
  token: string | undefined;
  body: string;
}

/** The answer about to be sent, which a deviation may rewrite. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The body as a value to be written as JSON, or a string written as it is. */
  body: unknown;
}

export interface Deviation {
  /** Rewrites the request before the server reads it. */
  request?(asked: Asked): void;
  /** Rewrites the answer before it is sent. */
  answer?(answer: Answer, asked: Asked): void;
  /** Answers by itself (true) instead of the server: a body of any size, speed or encoding. */
  takeOver?(asked: Asked, res: ServerResponse): boolean;
}

export interface FaithfulOptions {
  /** The one key the deployment issued (KEY by default). */
  key?: string;
  /** Requests a key may make in a minute. */
  quota?: number;
  /** The virtual clock's start, in ms. */
  start?: number;
  deviation?: Deviation;
}

export interface FaithfulServer {
  base: string;
  /** Advances the virtual clock: verify's wait. */
  advance(seconds: number): void;
  /** Every request received: method, path and query. */
  seen: string[];
  close(): Promise<void>;
}

export const KEY = 'faithful-key-0123456789';
const REMOVAL_MS = Date.UTC(2030, 11, 5);
const SUNSET = new Date(REMOVAL_MS).toUTCString();
const DEPRECATED = `@${Date.UTC(2025, 0, 1) / 1000}`;
const STATUSES = ['available', 'pending', 'sold'];

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

function seed(): Pet[] {
  return Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Animal ${i + 1}`, categoryId: (i % 4) + 1, status: STATUSES[i % 3] }));
}

function error(status: number, code: string, message: string): Answer {
  return { status, headers: {}, body: { code, message, status } };
}

/** Whether a NewPet body is valid: name a string, categoryId an integer, status one of three, nothing else. */
function newPetOf(body: string): Omit<Pet, 'id'> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const pet = value as Record<string, unknown>;
  if (Object.keys(pet).some((k) => !['name', 'categoryId', 'status'].includes(k))) return undefined;
  if (typeof pet.name !== 'string' || typeof pet.categoryId !== 'number' || !Number.isSafeInteger(pet.categoryId)) return undefined;
  if (pet.status !== undefined && !STATUSES.includes(pet.status as string)) return undefined;
  return { name: pet.name, categoryId: pet.categoryId, ...(pet.status === undefined ? {} : { status: pet.status as string }) };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Starts the implementation on 127.0.0.1, port 0; `base` ends in /v1. */
export async function faithfulServer(options: FaithfulOptions = {}): Promise<FaithfulServer> {
  const quota = options.quota ?? 1000;
  const key = options.key ?? KEY;
  let now = options.start ?? Date.UTC(2026, 5, 1, 12, 0, 0);
  const pets = seed();
  let nextId = 1000;
  // Fixed one-minute windows by key ('' for requests without a valid key, counted by address).
  const used = new Map<string, { window: number; count: number }>();
  const seen: string[] = [];
  const deviation = options.deviation ?? {};

  function answerTo(asked: Asked): { answer: Answer; counted: string } {
    const valid = asked.token === key;
    const counted = valid ? key : '';
    const window = Math.floor(now / 60_000);
    const usage = used.get(counted);
    const count = usage?.window === window ? usage.count : 0;
    if (valid && count >= quota) return { answer: { ...error(429, 'rate_limited', 'Too many requests.'), headers: { 'retry-after': 'reset' } }, counted };
    used.set(counted, { window, count: count + 1 });
    const getPet = /^\/v1\/pets\/([^/]+)$/.exec(asked.path);
    const route =
      asked.path === '/v1/pets' ? (asked.method === 'POST' ? 'createPet' : asked.method === 'GET' ? 'listPets' : undefined) : getPet ? 'getPet' : undefined;
    if (!route) return { answer: error(404, 'not_found', 'No such route.'), counted };
    const deprecation: Record<string, string> =
      route === 'getPet' ? { deprecation: DEPRECATED, sunset: SUNSET, link: '</v1/pets>; rel="successor-version"' } : {};
    const withHeaders = (a: Answer): { answer: Answer; counted: string } => ({ answer: { ...a, headers: { ...deprecation, ...a.headers } }, counted });
    if (!valid) return withHeaders({ ...error(401, 'unauthorized', 'A valid API key is required.'), headers: { 'www-authenticate': 'Bearer' } });
    if (route === 'getPet' && now >= REMOVAL_MS) return withHeaders(error(410, 'gone', 'GET /pets/{petId} was removed; use GET /pets.'));
    if (route === 'listPets') {
      const limitText = asked.query.get('limit');
      const limit = limitText === null ? 20 : /^\d+$/.test(limitText) ? Number(limitText) : NaN;
      if (!(limit >= 1 && limit <= 100)) return withHeaders(error(400, 'invalid_limit', 'limit is 1 to 100.'));
      const status = asked.query.get('status');
      if (status !== null && !STATUSES.includes(status)) return withHeaders(error(400, 'invalid_status', 'status is available, pending or sold.'));
      return withHeaders({ status: 200, headers: {}, body: pets.filter((p) => status === null || p.status === status).slice(0, limit) });
    }
    if (route === 'createPet') {
      const fields = newPetOf(asked.body);
      if (!fields) return withHeaders(error(400, 'invalid_body', 'A NewPet needs name and categoryId.'));
      const pet = { id: nextId++, ...fields };
      pets.push(pet);
      return withHeaders({ status: 201, headers: { location: `/v1/pets/${pet.id}` }, body: pet });
    }
    const id = getPet?.[1] ?? '';
    if (!/^-?\d+$/.test(id) || BigInt(id) > 2n ** 63n - 1n) return withHeaders(error(400, 'invalid_id', 'petId is an int64.'));
    const pet = pets.find((p) => String(p.id) === id);
    return withHeaders(pet ? { status: 200, headers: {}, body: pet } : error(404, 'not_found', 'No such animal.'));
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const authorization = req.headers.authorization;
      const asked: Asked = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        token: authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined,
        body: await readBody(req),
      };
      seen.push(`${asked.method} ${url.pathname}${url.search}`);
      deviation.request?.(asked);
      if (deviation.takeOver?.(asked, res)) return;
      const { answer, counted } = answerTo(asked);
      // Every answer tells the window of the key it counted against, as Unix seconds.
      const window = Math.floor(now / 60_000);
      const usage = used.get(counted);
      const reset = (window + 1) * 60;
      answer.headers = {
        date: new Date(now).toUTCString(),
        'x-ratelimit-limit': String(quota),
        'x-ratelimit-remaining': String(Math.max(0, quota - (usage?.window === window ? usage.count : 0))),
        'x-ratelimit-reset': String(reset),
        ...answer.headers,
      };
      if (answer.headers['retry-after'] === 'reset') answer.headers['retry-after'] = String(reset - Math.floor(now / 1000));
      deviation.answer?.(answer, asked);
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}/v1`,
    seen,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
