import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/core/input/openapi.js';
import { startMock, type RunningMock } from '../../src/index.js';
import { rawRequest } from '../support/raw.js';
import { writeScenario } from '../support/replay.js';

/** The header families a client generator types from the document. */
const FAMILY = /^(x-ratelimit-.*|retry-after|deprecation|sunset|link|location|www-authenticate)$/;

type OperationId = 'listPets' | 'createPet' | 'getPet';
interface HeaderObject {
  required?: boolean;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
}

const OPERATIONS: Record<OperationId, { method: string; template: string; path: string; responses: Record<string, ResponseObject> }> = {
  listPets: { method: 'GET', template: '/pets', path: '/v1/pets', responses: openapiDocument.paths['/pets'].get.responses },
  createPet: { method: 'POST', template: '/pets', path: '/v1/pets', responses: openapiDocument.paths['/pets'].post.responses },
  getPet: { method: 'GET', template: '/pets/{petId}', path: '/v1/pets/1', responses: openapiDocument.paths['/pets/{petId}'].get.responses },
};

/** The document's headers of one answer: name (lower case) → required. */
function declared(op: OperationId, status: number): Map<string, boolean> {
  const response = OPERATIONS[op].responses[String(status)];
  const out = new Map<string, boolean>();
  for (const [name, header] of Object.entries(response?.headers ?? {})) out.set(name.toLowerCase(), header.required === true);
  return out;
}

/** Statuses a scenario may force (the scenario schema's list). */
const FORCIBLE = [400, 401, 404, 410, 413, 415, 429, 500, 502, 503, 504];
const petBody = JSON.stringify({ name: 'Rex', categoryId: 3 });

let mock: RunningMock;
let sessions = 0;
beforeAll(async () => {
  mock = await startMock({ port: 0, keys: ['tiny:free:1:1000'] });
});
afterAll(async () => {
  await mock?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
}

/** A fresh session, so no case sees another's counters or scenario. */
function freshSession(scenario?: string): string {
  const id = `matrix-${++sessions}`;
  if (scenario) mock.session(id).useScenario(scenario);
  return id;
}

async function send(
  op: OperationId,
  session: string,
  init: { key?: string | null; headers?: Record<string, string>; body?: string; query?: string; path?: string } = {},
): Promise<Answer> {
  const { method, path } = OPERATIONS[op];
  const headers: Record<string, string> = { 'x-mock-session': session, ...init.headers };
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? 'demo-free'}`;
  let body = init.body;
  if (method === 'POST') {
    headers['content-type'] ??= 'application/json';
    body ??= petBody;
  }
  const res = await fetch(`${mock.origin}${init.path ?? path}${init.query ?? ''}`, { method, headers, body });
  await res.arrayBuffer();
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => (out[name] = value));
  return { status: res.status, headers: out };
}

type Producer = () => Promise<Answer>;

async function raw(op: OperationId, target: string, extra: string): Promise<Answer> {
  const { method } = OPERATIONS[op];
  const reply = await rawRequest(
    mock,
    `${method} ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-free\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`,
  );
  return { status: reply.status, headers: reply.headers };
}

/** How each status arises on its own, per operation (undefined: it does not); forced answers are added for every forcible status. */
const NATURAL: Record<number, (op: OperationId) => Producer | undefined> = {
  200: (op) => (op === 'createPet' ? undefined : () => send(op, freshSession())),
  201: (op) => (op === 'createPet' ? () => send(op, freshSession()) : undefined),
  400: (op) => () =>
    send(op, freshSession(), op === 'listPets' ? { query: '?limit=0' } : op === 'createPet' ? { body: '{"name":1}' } : { path: '/v1/pets/abc' }),
  401: (op) => () => send(op, freshSession(), { key: null }),
  404: (op) => (op === 'getPet' ? () => send(op, freshSession(), { path: '/v1/pets/999999' }) : undefined),
  410: (op) => (op === 'getPet' ? () => send(op, freshSession('removed')) : undefined),
  413: (op) => (op === 'createPet' ? () => send(op, freshSession(), { body: `{"name":"${'a'.repeat(1024 * 1024)}","categoryId":1}` }) : undefined),
  414: (op) => () => raw(op, `${OPERATIONS[op].path}?q=${'a'.repeat(9000)}`, ''),
  415: (op) => (op === 'createPet' ? () => send(op, freshSession(), { headers: { 'content-type': 'text/plain' } }) : undefined),
  429: (op) => async () => {
    const session = freshSession();
    await send(op, session, { key: 'tiny' });
    return send(op, session, { key: 'tiny' });
  },
  431: (op) => () => raw(op, OPERATIONS[op].path, `X-Big: ${'a'.repeat(20_000)}\r\n`),
  // The last id a create can give is 2^53 − 1: a store that starts there is full for creates.
  507: (op) => (op === 'createPet' ? () => send(op, freshSession(lastIdScenario())) : undefined),
};

/** A scenario whose store holds one animal at the largest id a create may reach. */
function lastIdScenario(): string {
  const file = writeScenario('last-id.yaml', ['description: the id space is used up', 'data: { fixtures: last-id.json }']);
  writeFileSync(join(dirname(file), 'last-id.json'), JSON.stringify([{ id: Number.MAX_SAFE_INTEGER, name: 'Last', categoryId: 1 }]));
  return file;
}

/**
 * Statuses no request can bring about without real time passing: Node's request timeout gives 408
 * through the same raw-socket answer as 431, whose headers the matrix checks.
 */
const TIMED_ONLY = [408];

interface Case {
  op: OperationId;
  status: number;
  how: string;
  produce: () => Promise<Answer>;
}

const cases: Case[] = [];
for (const op of Object.keys(OPERATIONS) as OperationId[]) {
  for (const status of Object.keys(OPERATIONS[op].responses).map(Number)) {
    const natural = NATURAL[status]?.(op);
    if (natural) cases.push({ op, status, how: 'as it arises', produce: natural });
    if (FORCIBLE.includes(status)) {
      for (const retryAfter of [undefined, 7]) {
        cases.push({
          op,
          status,
          how: `forced by a scenario${retryAfter ? ' with a retry delay' : ''}`,
          produce: () => {
            const file = writeScenario(`force-${op.toLowerCase()}-${status}.yaml`, [
              'description: one forced answer',
              'steps:',
              `  - match: { operation: ${op} }`,
              `    answer: { status: ${status}${retryAfter ? `, retryAfter: ${retryAfter}` : ''} }`,
            ]);
            return send(op, freshSession(file));
          },
        });
      }
    }
  }
}
cases.push({ op: 'listPets', status: 429, how: 'for a banned key', produce: () => send('listPets', freshSession('banned')) });
cases.push({ op: 'getPet', status: 429, how: 'for a banned key', produce: () => send('getPet', freshSession('banned')) });

describe('the OpenAPI document declares every header an answer carries', () => {
  it('the matrix covers every status the document lists for every operation', () => {
    for (const op of Object.keys(OPERATIONS) as OperationId[]) {
      const covered = new Set(cases.filter((c) => c.op === op).map((c) => String(c.status)));
      expect([...covered].sort()).toEqual(
        Object.keys(OPERATIONS[op].responses)
          .filter((status) => !TIMED_ONLY.includes(Number(status)))
          .sort(),
      );
    }
  });

  it.each(cases.map((c) => [c.op, c.status, c.how, c] as const))(
    '%s %i (%s): every rate-limit, Retry-After, deprecation, Link, Location and WWW-Authenticate header is declared, and every required one sent',
    async (op, status, _how, c) => {
      const answer = await c.produce();
      expect(answer.status).toBe(status);
      const headers = declared(op, status);
      const sent = Object.keys(answer.headers).filter((name) => FAMILY.test(name));
      expect(sent.filter((name) => !headers.has(name))).toEqual([]);
      const required = [...headers].filter(([, isRequired]) => isRequired).map(([name]) => name);
      expect(required.filter((name) => answer.headers[name] === undefined)).toEqual([]);
    },
  );
});
