// The deprecation rules follow the OpenAPI document, not an operation's name: with a document that
// marks listPets deprecated and getPet not, the whole in-memory mock (headers, the 410 before the
// key check, the audit) treats GET /v1/pets as the deprecated operation and GET /v1/pets/{petId}
// as any other. The document is replaced for this file only.
import { describe, expect, it, vi } from 'vitest';
import { createFetchHandler, type MockFetchHandler } from '../../src/index.js';

vi.mock('../../src/core/input/openapi.js', async (importOriginal) =>
  (await import('../support/deprecated-document.js')).listPetsDeprecated(await importOriginal()),
);

const REMOVAL = '2030-12-05T00:00:00.000Z';

function handler(): MockFetchHandler {
  const h = createFetchHandler({ keys: ['sdk-key-1:pro'] });
  h.clock.freeze();
  h.clock.set('2030-12-04T23:59:00Z');
  return h;
}

async function send(h: MockFetchHandler, path: string, key: string | null = 'sdk-key-1'): Promise<Response> {
  const headers = new Headers(key === null ? {} : { authorization: `Bearer ${key}` });
  return h(new Request(`http://mock.test${path}`, { headers }));
}

describe('a document that deprecates listPets instead of getPet', () => {
  it.each([
    ['/v1/pets', 'sdk-key-1', 200, true],
    ['/v1/pets?limit=0', 'sdk-key-1', 400, true],
    ['/v1/pets', null, 401, true],
    ['/v1/pets/1', 'sdk-key-1', 200, false],
    ['/v1/pets/999999', 'sdk-key-1', 404, false],
  ])('GET %s (key %s) -> %i, with Deprecation, Sunset and Link: %s', async (path, key, status, announced) => {
    const res = await send(handler(), path, key);
    expect(res.status).toBe(status);
    expect(res.headers.get('deprecation')).toBe(announced ? '@1764892800' : null);
    expect(res.headers.get('sunset')).toBe(announced ? 'Thu, 05 Dec 2030 00:00:00 GMT' : null);
    expect(res.headers.has('link')).toBe(announced);
  });

  it('removes GET /v1/pets at the removal instant, before the key check, naming it; GET /v1/pets/{petId} stays', async () => {
    const h = handler();
    h.clock.set(REMOVAL);
    for (const key of ['sdk-key-1', null]) {
      const gone = await send(h, '/v1/pets', key);
      expect(gone.status).toBe(410);
      expect(await gone.json()).toEqual({
        code: 'endpoint_removed',
        message: `GET /v1/pets was removed on ${REMOVAL}. Use GET /v1/pets with the status filter instead.`,
        status: 410,
      });
    }
    expect((await send(h, '/v1/pets/1')).status).toBe(200);
  });

  it('audits calls of GET /v1/pets as deprecated-call and call-after-removal, and none of GET /v1/pets/{petId}', async () => {
    const h = handler();
    await send(h, '/v1/pets');
    await send(h, '/v1/pets/1');
    h.clock.set(REMOVAL);
    await send(h, '/v1/pets');
    await send(h, '/v1/pets');
    await send(h, '/v1/pets/2');
    const report = h.audit();
    expect(report.findings.map((f) => [f.rule, f.requests])).toEqual([
      ['deprecated-call', [1]],
      ['call-after-removal', [3, 4]],
    ]);
    expect(report.findings[0]!.message).toBe(
      '1 request with key sdk-…y-1 (#1) used GET /v1/pets, which the specification deprecates and removes on 5 December 2030. Move to GET /v1/pets?status= (the replacement it names) before then.',
    );
    expect(report.findings[1]!.message).toMatch(
      /^after the 410 at #3 said GET \/v1\/pets was removed, the client \(key sdk-…y-1\) called it 1 more time \(#4\)\./,
    );
  });
});
