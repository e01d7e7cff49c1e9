import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { compileGlob } from '../../src/core/state/glob.js';

/** What `*` patterns mean, as the journal documents them (a backtracking regexp, only ever fed small inputs here). */
const reference = (pattern: string, text: string): boolean =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*')}$`,
    's',
  ).test(text);

describe('the journal path pattern', () => {
  it.each<[string, string, boolean]>([
    ['/v1/pets', '/v1/pets', true],
    ['/v1/pets', '/v1/pets/1', false],
    ['/v1/pets/*', '/v1/pets/1', true],
    ['/v1/pets/*', '/v1/pets/', true],
    ['/v1/*', '/v1/pets', true],
    ['*', '', true],
    ['**', 'x', true],
    ['*/1', '/v1/pets/1', true],
    ['/v1/*/1', '/v1/pets/1', true],
    ['/v1/*/1', '/v1/1', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['*ab*ab*', 'xabab', true],
    ['*aab*', 'aaab', true],
    ['*abcabd*', 'abcabcabd', true],
    ['/*.json', '/v1/a.json', true],
    ['/v1/pets?x', '/v1/petsXx', false],
  ])('%s against %s is %s', (pattern, text, expected) => {
    expect(compileGlob(pattern).test(text)).toBe(expected);
  });

  it('agrees with the definition on random patterns and texts', () => {
    const letters = fc.constantFrom('a', 'b', '/', '*', '.');
    fc.assert(
      fc.property(fc.string({ unit: letters, maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 14 }), (pattern, text) => {
        expect(compileGlob(pattern).test(text)).toBe(reference(pattern, text));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a hostile pattern against long texts in one pass (a backtracking matcher took hours here)', () => {
    const text = `/${'a'.repeat(5_000)}`;
    let matched = 0;
    for (const stars of [4, 10, 50, 500]) {
      const pattern = `/${'*a'.repeat(stars)}*b`;
      for (let i = 0; i < 200; i++) if (compileGlob(pattern).test(text)) matched++;
    }
    expect(matched).toBe(0);
    expect(compileGlob(`/${'*a'.repeat(500)}*`).test(text)).toBe(true);
  });
});

describe('GET /__admin/requests?path= with the patterns of the report', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock.close());

  it('answers at once after requests with 300-character paths', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${mock.url}/${'a'.repeat(300)}`, { headers: { authorization: 'Bearer demo-free' } });
    for (const pattern of ['/*a*a*a*b', '/*a*a*a*a*b', `/${'*a'.repeat(200)}*b`]) {
      const res = await fetch(`${mock.origin}/__admin/requests?path=${encodeURIComponent(pattern)}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    }
    const all = await fetch(`${mock.origin}/__admin/requests?path=${encodeURIComponent('/*a*a*a*')}`);
    expect(((await all.json()) as unknown[]).length).toBe(3);
  });
});
