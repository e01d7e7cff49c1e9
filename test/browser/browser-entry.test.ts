import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScenarioError, createFetchHandler } from '../../src/browser/index.js';

// The browser entry's own rules, run on Node without a browser: the page test
// (msw-browser.test.ts) covers the bundle in Chromium.
const api = 'https://api.example.test/v1';
/** The shipped scenarios' names, from the files. */
const SHIPPED = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.replace(/\.yaml$/, ''))
  .sort();
const free = { headers: { authorization: 'Bearer demo-free' } };

describe('petstore-mock/browser createFetchHandler', () => {
  it('plays the docs example: a tight quota from a scenario object, then the clock moves on', async () => {
    const petstore = createFetchHandler({
      scenarios: [
        {
          name: 'tight-quota',
          description: 'three a minute',
          keys: [{ key: 'demo-free', perMinute: 3 }],
          clock: { start: '2026-03-10T12:00:00Z', frozen: true },
        },
      ],
      scenario: 'tight-quota',
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await petstore(new Request(`${api}/pets?limit=1`, free))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    petstore.clock.advance('60s');
    expect((await petstore(new Request(`${api}/pets?limit=1`, free))).status).toBe(200);
    // The client waited out the 429 on the session clock: the audit finds nothing.
    expect(petstore.audit()).toEqual({
      ok: true,
      findings: [],
      judged: { requests: 5, keys: [{ key: 'demo…ree', keyId: petstore.requests()[0]!.keyId, requests: 5 }] },
    });
    expect((await petstore(new Request(`${api}/pets/1`, free))).status).toBe(200);
    expect(() => petstore.expectWellBehaved()).not.toThrow();
    expect(() => petstore.expectWellBehaved({ warnings: true })).toThrow(/deprecated-call \(warning, key demo…ree\)/);
    expect(petstore.scenarios()).toEqual(['default', ...SHIPPED.filter((n) => n !== 'default'), 'tight-quota']);
    petstore.useScenario('default');
    expect(petstore.clock.state().frozen).toBe(false);
  });

  it.each([
    [
      { name: 'from-disk', description: 'x', data: { fixtures: 'pets.json' } },
      'petstore-mock: the scenario "from-disk" at data.fixtures: the browser build reads no files; give the animals as the handler\'s fixtures option instead.',
    ],
    [
      { description: 'no name' },
      'petstore-mock: a scenario object needs a name of lower-case letters, digits and - (such as "checkout-outage"), so that useScenario can switch to it.',
    ],
    [
      {
        name: 'bad-body',
        description: 'x',
        steps: [{ match: { operation: 'getPet' }, answer: { status: 200, body: { id: 1, name: 'Rex', categoryId: 'one' } } }],
      },
      'petstore-mock: the scenario "bad-body" at steps[0].answer.body.categoryId: the forced body is not what getPet answers: categoryId must be of type integer; getPet answers one animal ({id, name, categoryId, status?}); fix the object and try again.',
    ],
    [
      { name: 'ghost', description: 'x', steps: [{ match: { key: 'ghost-key' }, answer: { status: 503 } }] },
      'petstore-mock: the scenario "ghost" at steps[0].match.key: match names the key "ghost-key", which this server does not have, so the step would never run; add it under keys; fix the object and try again.',
    ],
  ])('refuses %j', (object, message) => {
    const petstore = createFetchHandler();
    expect(() => petstore.useScenario(object as never)).toThrow(ScenarioError);
    expect(() => petstore.useScenario(object as never)).toThrow(message);
  });

  it('names the scenarios it knows for an unknown name', () => {
    expect(() => createFetchHandler({ scenario: 'checkout-outage' })).toThrow(
      `petstore-mock: unknown scenario "checkout-outage"; the browser build knows default, ${SHIPPED.filter((n) => n !== 'default').join(', ')}. Give scenario objects in the scenarios option, or pass the object itself.`,
    );
  });

  it('refuses an option name it does not know, naming the ones it takes', () => {
    expect(() => createFetchHandler({ key: ['demo-x:free'] } as never)).toThrow(
      expect.objectContaining({
        name: 'MockOptionError',
        message:
          'petstore-mock: unknown option "key" given to createFetchHandler; its options are seed, pets, fixtures, keys, profile, scenarios, scenario, clientAddress, onRequest, now (docs/browser.md).',
      }),
    );
    expect(() => createFetchHandler({ seed: undefined, keys: undefined, scenario: undefined })).not.toThrow();
  });

  it('knows the shipped scenarios by name, as the server does', async () => {
    const petstore = createFetchHandler({ scenario: 'removed' });
    expect(petstore.scenarios()).toEqual(['default', ...SHIPPED.filter((n) => n !== 'default')]);
    expect((await petstore(new Request(`${api}/pets/1`, free))).status).toBe(410);
    petstore.useScenario('rate-limit-minute');
    const limited = await petstore(new Request(`${api}/pets?limit=1`, free));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it.each(SHIPPED)('the shipped scenario %s compiles in the browser build', (name) => {
    expect(() => createFetchHandler().useScenario(name)).not.toThrow();
  });

  it('serves fixtures given as objects, and refuses compressed bodies with 415', async () => {
    const petstore = createFetchHandler({ fixtures: [{ id: 5, name: 'Tom', categoryId: 1 }] });
    expect(await (await petstore(new Request(`${api}/pets`, free))).json()).toEqual([{ id: 5, name: 'Tom', categoryId: 1 }]);
    const zipped = await petstore(
      new Request(`${api}/pets`, {
        method: 'POST',
        headers: { ...free.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: new Uint8Array([31, 139, 8, 0]),
      }),
    );
    expect(zipped.status).toBe(415);
  });
});
