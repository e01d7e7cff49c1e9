// A deployment's profile as the mock runs it: the document checked field by field, the latency
// curve through its percentiles (the seeded draws reproduce them), every key given its limits,
// and a scenario's profile: inherited and overriding.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileProblem, checkProfile, compileProfile, curveDraw, curveOf, type Profile } from '../../src/core/scenarios/profile.js';
import { SeededRandom, ScriptedRuntime, latencyOfDraw } from '../../src/core/scenarios/scenario-runtime.js';
import { createFetchHandler, verify } from '../../src/index.js';

const PROFILE: Profile = {
  format: 'petstore-mock/profile',
  version: 1,
  base: 'https://staging.example.com/v1',
  measuredAt: '2026-03-10T12:00:00.000Z',
  operations: { listPets: { latencyMs: { p50: 40, p95: 90, p99: 150 } }, getPet: { latencyMs: { p50: 10, p95: 20, p99: 30 } } },
  limits: ['10/s', '600/m'],
  retryAfterForm: 'seconds',
  errorCodes: ['rate_limited'],
};

const nearest = (sorted: number[], p: number): number => sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? NaN;

describe('checkProfile', () => {
  it.each([
    ['not an object', [], '', /JSON object/],
    ['another format', { ...PROFILE, format: 'petstore-mock/snapshot' }, '/format', /petstore-mock\/profile/],
    ['another version', { ...PROFILE, version: 2 }, '/version', /version 1, not 2/],
    ['an unknown field', { ...PROFILE, seed: 1 }, '/seed', /not a field/],
    ['a percentile missing', { ...PROFILE, operations: { listPets: { latencyMs: { p50: 1, p95: 2 } } } }, '/operations/listPets/latencyMs/p99', /p99 must be/],
    [
      'percentiles falling',
      { ...PROFILE, operations: { listPets: { latencyMs: { p50: 5, p95: 4, p99: 6 } } } },
      '/operations/listPets/latencyMs/p95',
      /only grow/,
    ],
    ['a wrong window', { ...PROFILE, limits: ['10/w'] }, '/limits', /unit "w"/],
    ['a wrong Retry-After form', { ...PROFILE, retryAfterForm: 'date' }, '/retryAfterForm', /seconds" or "http-date/],
  ])('refuses %s, naming the field', (_what, value, at, message) => {
    let thrown: unknown;
    try {
      checkProfile(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProfileProblem);
    expect((thrown as ProfileProblem).at).toBe(at);
    expect((thrown as ProfileProblem).message).toMatch(message);
  });

  it('takes a profile verify wrote, and one without errorCodes', () => {
    expect(checkProfile(PROFILE)).toBe(PROFILE);
    const { errorCodes: _codes, ...older } = PROFILE;
    expect(checkProfile(older)).toEqual(older);
  });
});

describe('the latency of a profile', () => {
  it('passes through the percentiles, the tail going on at the slope between p95 and p99', () => {
    const curve = curveOf({ p50: 40, p95: 90, p99: 150 });
    expect([0, 0.5, 0.95, 0.99].map((u) => curveDraw(curve, u))).toEqual([20, 40, 90, 150]);
    expect(curveDraw(curve, 0.999999)).toBe(165);
    expect(curveDraw(curve, 0.725)).toBe(65);
  });

  it('seeded draws reproduce each operation percentile within 2%; an operation not measured takes the largest', () => {
    const compiled = compileProfile(PROFILE);
    const latency = { minMs: 0, maxMs: 200, curves: compiled.latency };
    for (const [operation, want] of [
      ['listPets', PROFILE.operations.listPets?.latencyMs],
      ['getPet', PROFILE.operations.getPet?.latencyMs],
      ['createPet', { p50: 40, p95: 90, p99: 150 }],
    ] as const) {
      const random = new SeededRandom(1);
      const draws = Array.from({ length: 20_000 }, () => latencyOfDraw(latency, random.next(), operation)).sort((a, b) => a - b);
      for (const p of ['p50', 'p95', 'p99'] as const)
        expect(Math.abs(nearest(draws, Number(p.slice(1))) - (want?.[p] ?? NaN))).toBeLessThanOrEqual((want?.[p] ?? 0) * 0.02 + 1);
    }
  });

  it('a runtime given the curves draws by operation, the same sequence for the same seed', () => {
    const spec = { scenario: 's', steps: [], repeat: false, latency: { minMs: 5, maxMs: 165, seed: 3, curves: compileProfile(PROFILE).latency } };
    const [a, b] = [new ScriptedRuntime(spec), new ScriptedRuntime(spec)];
    const drawn = Array.from({ length: 50 }, () => a.latency('getPet'));
    expect(Array.from({ length: 50 }, () => b.latency('getPet'))).toEqual(drawn);
    expect(Math.max(...drawn)).toBeLessThanOrEqual(33);
  });
});

describe('a profile given to the mock', () => {
  const limitOf = async (mock: ReturnType<typeof createFetchHandler>, key: string, session?: string): Promise<string | null> =>
    (
      await mock(new Request('http://x/v1/pets?limit=1', { headers: { authorization: `Bearer ${key}`, ...(session ? { 'x-mock-session': session } : {}) } }))
    ).headers.get('x-ratelimit-limit');

  it.each([
    ['seconds', /^\d+$/],
    ['http-date', /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/],
  ] as const)('sends Retry-After in the form the deployment did (%s)', async (form, shape) => {
    const mock = createFetchHandler({ profile: { ...PROFILE, retryAfterForm: form } });
    mock.clock.freeze();
    const answers = await Promise.all(
      Array.from({ length: 11 }, () => mock(new Request('http://x/v1/pets/1', { headers: { authorization: 'Bearer demo-free' } }))),
    );
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.headers.get('retry-after')).toMatch(shape);
  });

  it('gives every key the mock knows its limits, under a scenario switched to as well', async () => {
    const mock = createFetchHandler({ profile: PROFILE, keys: ['mine:business:5000:1000000'] });
    for (const key of ['demo-free', 'demo-enterprise', 'mine']) expect(await limitOf(mock, key)).toBe('10');
    mock.session('other').useScenario('ban');
    expect(await limitOf(mock, 'demo-free', 'other')).toBe('10');
  });

  it("a scenario's profile: (a file beside it, or the document) gives its latency and limits; a wrong one is named with its field", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-scenario-'));
    try {
      writeFileSync(join(dir, 'staging.json'), JSON.stringify(PROFILE));
      writeFileSync(join(dir, 'by-path.yaml'), 'description: profiled by a file\nprofile: staging.json\n');
      writeFileSync(join(dir, 'inline.json'), JSON.stringify({ description: 'profiled inline', profile: { ...PROFILE, limits: ['3/s'] } }));
      writeFileSync(join(dir, 'wrong.json'), JSON.stringify({ description: 'wrong', profile: { ...PROFILE, limits: ['1/y'] } }));
      const mock = createFetchHandler({});
      mock.useScenario(join(dir, 'by-path.yaml'));
      expect(await limitOf(mock, 'demo-pro')).toBe('10');
      expect(mock.requests().at(-1)?.delayMs).toBeGreaterThanOrEqual(20);
      mock.useScenario(join(dir, 'inline.json'));
      expect(await limitOf(mock, 'demo-pro')).toBe('3');
      expect(() => mock.useScenario(join(dir, 'wrong.json'))).toThrow(/wrong\.json:\d+:\d+.*profile at \/limits is wrong: "1\/y" has the unit "y"/s);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a profile option that is neither a document nor a path', () => {
    expect(() => createFetchHandler({ profile: 42 as never })).toThrow(/"profile" must be a profile document or the path of a profile file/);
  });
});

describe("verify's profile and compareMock options", () => {
  it.each([
    [{ profile: '' }, /profile must be true or the path of the file to write, not ""/],
    [{ profile: 3 }, /profile must be true or the path of the file to write, not 3/],
    [{ compareMock: 'yes' }, /compareMock must be true or false, not "yes"/],
  ])('refuses %j before sending anything', async (extra, message) => {
    await expect(verify('http://127.0.0.1:9/v1', { key: 'some-key', ...(extra as object) })).rejects.toThrow(message);
  });
});

describe('a profiled session in a snapshot', () => {
  it('carries the profile as a document, so a mock without one restores it answering alike', async () => {
    const source = createFetchHandler({ profile: PROFILE });
    const snapshot = source.snapshot() as { scenario: { definition: { profile?: unknown } } };
    expect(snapshot.scenario.definition.profile).toEqual(PROFILE);
    const target = createFetchHandler({});
    target.restore(snapshot);
    expect(await limitOfAny(target, 'demo-free')).toBe('10');
    expect(target.requests().at(-1)?.delayMs).toBeGreaterThanOrEqual(20);
  });
});

async function limitOfAny(mock: ReturnType<typeof createFetchHandler>, key: string): Promise<string | null> {
  const answer = await mock(new Request('http://x/v1/pets?limit=1', { headers: { authorization: `Bearer ${key}` } }));
  return answer.headers.get('x-ratelimit-limit');
}
