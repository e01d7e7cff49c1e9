import { afterAll, beforeAll, expect } from 'vitest';
import { Agent, request } from 'node:http';
import { startMock, type MockOptions, type RunningMock } from '../../src/index.js';
import { responseProblem } from './openapi-check.js';
import { at } from './checked.js';

/** A fixed instant tests freeze the clock at: 2026-03-10T12:00:00Z, a whole minute. */
export const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);

/** A response as tests read it, already checked against the OpenAPI document. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** Starts a mock for the file's tests on port 0 with the clock frozen at T0; closes it after. */
export function useMock(options: MockOptions = {}): {
  mock: () => RunningMock;
  call: (path: string, init?: RequestInit & { key?: string | null }) => Promise<Reply>;
  fresh: () => void;
} {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, ...options });
    mock.clock.freeze();
    mock.clock.set(T0);
  });
  afterAll(async () => {
    await mock?.close();
  });
  return {
    mock: () => mock,
    call: (path, init) => call(mock, path, init),
    /** Restores the default session and freezes its clock at T0 again. */
    fresh: () => {
      mock.reset();
      mock.clock.freeze();
      mock.clock.set(T0);
    },
  };
}

/**
 * Sends a request to the mock (`key` defaults to demo-free; null sends none) and asserts the
 * answer conforms to the OpenAPI document.
 */
export async function call(mock: RunningMock, path: string, init: RequestInit & { key?: string | null } = {}): Promise<Reply> {
  const { key = 'demo-free', ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${key}`);
  const method = rest.method ?? 'GET';
  const res = await fetch(`${mock.origin}${path}`, { ...rest, headers });
  const text = await res.text();
  const problem = responseProblem(method, at(path.split('?'), 0), res.status, res.headers, text);
  expect(problem).toBeUndefined();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * Sends `n` requests one after another and returns the statuses. Over one kept-alive connection
 * of node:http: thousands of fetch calls (a plan's minute is up to 5,000) cost the suite seconds
 * of CPU each. The first answer of every status is checked against the OpenAPI document as
 * `call` checks it; the rest are the same answer again.
 */
export async function burst(mock: RunningMock, n: number, path = '/v1/pets?limit=1', init: RequestInit & { key?: string | null } = {}): Promise<number[]> {
  const { key = 'demo-free', ...rest } = init;
  const headers: Record<string, string> = Object.fromEntries(new Headers(rest.headers).entries());
  if (key !== null && headers.authorization === undefined) headers.authorization = `Bearer ${key}`;
  const method = rest.method ?? 'GET';
  const body = typeof rest.body === 'string' ? rest.body : undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const checked = new Set<number>();
  const statuses: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const answer = await rawCall(agent, `${mock.origin}${path}`, method, headers, body);
      statuses.push(answer.status);
      if (checked.has(answer.status)) continue;
      checked.add(answer.status);
      expect(responseProblem(method, at(path.split('?'), 0), answer.status, answer.headers, answer.text)).toBeUndefined();
    }
  } finally {
    agent.destroy();
  }
  return statuses;
}

function rawCall(
  agent: Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') answerHeaders.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON POST of `body` (a string is sent as is). */
export function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}
