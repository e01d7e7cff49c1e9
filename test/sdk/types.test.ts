import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { useMock } from '../support/mock.js';
import { TYPES_FILE, generateTypes } from './generate.js';
import type { paths } from './generated/petstore.js';

const { mock } = useMock();

describe('the generated client types', () => {
  it('are what openapi-typescript generates from the served document today', async () => {
    const generated = await generateTypes(`${mock().url}/openapi.json`);
    if (process.env.UPDATE_SDK_TYPES === '1') writeFileSync(TYPES_FILE, generated);
    expect(generated).toContain('listPets: {');
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(generated);
  });
});

type Answer<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? R[S]
    : never
  : never;
type HeadersOf<A> = A extends { headers: infer H } ? H : never;
/** The declared header names, without the index signature for any other header. */
type Declared<H> = keyof { [K in keyof H as string extends K ? never : number extends K ? never : K]: H[K] };
/** The names of the declared headers a client may count on. */
type RequiredHeaders<H> = { [K in Declared<H>]-?: undefined extends H[K] ? never : K }[Declared<H>];

describe('what the generated types promise a client', () => {
  it('the rate-limit headers are always there; the 429 always has Retry-After; forced answers may have one', () => {
    expectTypeOf<RequiredHeaders<HeadersOf<Answer<'/pets', 'get', 429>>>>().toEqualTypeOf<
      'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset' | 'Retry-After'
    >();
    expectTypeOf<RequiredHeaders<HeadersOf<Answer<'/pets', 'get', 200>>>>().toEqualTypeOf<
      'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset'
    >();
    expectTypeOf<HeadersOf<Answer<'/pets', 'post', 503>>>().toHaveProperty('Retry-After').toEqualTypeOf<number | undefined>();
    expectTypeOf<RequiredHeaders<HeadersOf<Answer<'/pets', 'post', 201>>>>().toEqualTypeOf<
      'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset' | 'Location'
    >();
    // The same, as the committed file says it (the checks above run in tsc).
    const types = readFileSync(TYPES_FILE, 'utf8');
    expect(types).not.toMatch(/"X-RateLimit-\w+"\?:/);
    expect(types).toMatch(/"Retry-After"\?: number;/);
  });

  it('every answer of getPet that reached its route carries the deprecation headers; a 401 its challenge too', () => {
    expectTypeOf<RequiredHeaders<HeadersOf<Answer<'/pets/{petId}', 'get', 401>>>>().toEqualTypeOf<
      'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset' | 'Deprecation' | 'Sunset' | 'Link' | 'WWW-Authenticate'
    >();
    expectTypeOf<RequiredHeaders<HeadersOf<Answer<'/pets/{petId}', 'get', 503>>>>().toEqualTypeOf<
      'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset' | 'Deprecation' | 'Sunset' | 'Link'
    >();
    expectTypeOf<RequiredHeaders<HeadersOf<Answer<'/pets/{petId}', 'get', 431>>>>().toEqualTypeOf<
      'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset'
    >();
    const types = readFileSync(TYPES_FILE, 'utf8');
    // Optional only on getPet's 408, 414 and 431, answered before the route is read.
    for (const name of ['Deprecation', 'Sunset', 'Link']) expect(types.match(new RegExp(` ${name}\\?: string;`, 'g'))).toHaveLength(3);
  });
});
