// No schema is compiled at run time (the OpenAPI, scenario and snapshot schemas are read as data by
// src/core/input/schema-check.ts): in a fresh
// process the first scenario object, the first snapshot and the first body are answered without
// a schema compile (which stalled the process 0.35-1.7 s), and the server never loads Ajv.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, waitFor, type CliRun } from './cli.js';

/**
 * A compile stall took 350 ms and more; an answer without one takes a few. Not a benchmark: a bound
 * on what the first call takes beyond the same call made again at once (the baseline of the same
 * moment, so a busy machine slows both).
 */
const NO_STALL_MS = 50;

let cli: CliRun;
let origin: string;

beforeAll(async () => {
  // NODE_DEBUG=module names every CommonJS module the process loads (Ajv is one) on stderr.
  cli = run(process.execPath, ['dist/cli.js', '--port', '0', '--ready-json'], { env: { NODE_DEBUG: 'module' } });
  const [line] = await waitFor(cli, /^\{.*\}\n/);
  origin = (JSON.parse(line) as { origin: string }).origin;
  // The admin API is loaded on its first call, and Express's body parser on its first JSON body:
  // those loads are not what is measured.
  expect((await fetch(`${origin}/__admin/scenario`)).status).toBe(200);
  const clock = await fetch(`${origin}/__admin/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance":"1s"}' });
  expect(clock.status).toBe(200);
});
afterAll(() => {
  cli?.child.kill('SIGKILL');
});

async function once(path: string, init: RequestInit): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${origin}${path}`, init);
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

/** The first call's status, and how much longer it took than the same call again. */
async function timed(path: string, init: RequestInit): Promise<{ status: number; ms: number }> {
  const first = await once(path, init);
  const again = await once(path, init);
  return { status: first.status, ms: first.ms - again.ms };
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('a fresh process compiles no schema on a request', () => {
  it(`answers the first PUT /__admin/scenario with an object, the first PUT /__admin/snapshot and the first body within ${NO_STALL_MS} ms of the same call again, and never loads Ajv`, async () => {
    const scenario = await timed(
      '/__admin/scenario',
      json('PUT', { scenario: { name: 'first', description: 'A frozen clock.', clock: { start: '2030-01-01T00:00:00Z', frozen: true } } }),
    );
    expect(scenario.status).toBe(200);
    expect(scenario.ms).toBeLessThan(NO_STALL_MS);

    const doc = (await (await fetch(`${origin}/__admin/snapshot`)).json()) as object;
    const snapshot = await timed('/__admin/snapshot?session=copy', json('PUT', doc));
    expect(snapshot.status).toBe(200);
    expect(snapshot.ms).toBeLessThan(NO_STALL_MS);

    const body = await timed('/v1/pets', json('POST', { name: 'Rex', categoryId: 1 }, { authorization: 'Bearer demo-pro', 'x-mock-session': 'copy' }));
    expect(body.status).toBe(201);
    expect(body.ms).toBeLessThan(NO_STALL_MS);

    expect(cli.stderr()).toMatch(/MODULE \d+: load/);
    expect(cli.stderr()).not.toMatch(/ajv/i);
  });
});
