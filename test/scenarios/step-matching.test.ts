import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { call, post } from '../support/mock.js';
import { first } from '../support/checked.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-steps-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const running: RunningMock[] = [];
afterAll(async () => {
  await Promise.all(running.map((m) => m.close()));
});
async function mockWith(text: string, name = 'steps.yaml'): Promise<RunningMock> {
  const mock = await startMock({ scenario: file(name, text), keys: ['qa-key-123456:pro'] });
  running.push(mock);
  return mock;
}

describe('steps that match on key and header', () => {
  it('forces answers only for the named key and header, forever', async () => {
    const mock = await mockWith(`description: the beta client of qa sees 503s
steps:
  - match: { key: qa-key-123456, headers: { X-Client: beta } }
    times: forever
    answer: { status: 503 }
`);
    const beta = { key: 'qa-key-123456', headers: { 'x-client': 'beta' } };
    for (let i = 0; i < 5; i++) expect((await call(mock, '/v1/pets?limit=1', beta)).status).toBe(503);
    expect((await call(mock, '/v1/pets?limit=1', { key: 'qa-key-123456', headers: { 'x-client': 'stable' } })).status).toBe(200);
    expect((await call(mock, '/v1/pets?limit=1', { key: 'qa-key-123456' })).status).toBe(200);
    expect((await call(mock, '/v1/pets?limit=1', { headers: { 'x-client': 'beta' } })).status).toBe(200);
    expect(mock.requests({ status: 503 }).map((e) => e.reason)).toEqual([1, 2, 3, 4, 5].map((n) => `scenario steps, step 1 (${n}, forever): forced 503`));
  });
});

describe('forced success answers', () => {
  it('answers the body the file gives, with the usual headers, and changes nothing in the store', async () => {
    const mock = await mockWith(
      `description: a fixed list, then a fixed create
steps:
  - match: { operation: listPets }
    answer:
      status: 200
      body: [{ id: 7, name: Bonnie, categoryId: 2, status: sold }]
  - match: { operation: createPet }
    answer: { status: 201, body: { id: 9000, name: Clyde, categoryId: 2 } }
`,
      'fixed.yaml',
    );
    const list = await call(mock, '/v1/pets');
    expect(list.status).toBe(200);
    expect(list.json).toEqual([{ id: 7, name: 'Bonnie', categoryId: 2, status: 'sold' }]);
    expect(list.headers.get('x-ratelimit-remaining')).toBe('59');
    const created = await call(mock, '/v1/pets', post({ name: 'Anything', categoryId: 1 }));
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: 9000, name: 'Clyde', categoryId: 2 });
    expect(created.headers.get('location')).toBe('/v1/pets/9000');
    expect((await call(mock, '/v1/pets/9000')).status).toBe(404);
    expect((await call(mock, '/v1/pets?limit=1')).json).toHaveLength(1);
  });
});

describe('scenario files that would answer outside the contract are refused', () => {
  it.each([
    [
      'wrong-body.yaml',
      `description: bad body
steps:
  - match: { operation: getPet }
    answer:
      status: 200
      body:
        id: 1
        name: Rex
        categoryId: one
`,
      ':9:9: the forced body is not what getPet answers: categoryId must be of type integer; getPet answers one animal ({id, name, categoryId, status?}); fix the file and try again.',
    ],
    [
      'extra-field.yaml',
      `description: extra field
steps:
  - match: { operation: listPets }
    answer: { status: 200, body: [{ id: 1, name: Rex, categoryId: 1, colour: red }] }
`,
      ':4:70: the forced body is not what listPets answers: 0.colour is not a field of Pet; listPets answers a list of animals ({id, name, categoryId, status?}); fix the file and try again.',
    ],
    [
      'list-as-object.yaml',
      `description: object for a list
steps:
  - match: { method: GET, path: /v1/pets }
    answer: { status: 200, body: { id: 1, name: Rex, categoryId: 1 } }
`,
      ':4:28: the forced body is not what listPets answers: the body must be of type array; listPets answers a list of animals ({id, name, categoryId, status?}); fix the file and try again.',
    ],
    [
      'wrong-success.yaml',
      `description: 201 for a list
steps:
  - answer: { status: 201, body: { id: 1, name: Rex, categoryId: 1 } }
`,
      ':3:15: listPets answers success with 200, not 201; narrow the match or use 200; fix the file and try again.',
    ],
    [
      'no-body.yaml',
      `description: a success without its body
steps:
  - match: { operation: getPet }
    answer: { status: 200 }
`,
      ':4:5: getPet answers 200 with one animal ({id, name, categoryId, status?}); give it as "body"; fix the file and try again.',
    ],
    [
      'success-with-code.yaml',
      `description: a success with an error's key
steps:
  - match: { operation: getPet }
    answer: { status: 200, code: pet_not_found, body: { id: 1, name: Rex, categoryId: 1 } }
`,
      ':4:28: unknown key "code" in steps[0].answer; the keys there are status, body; fix the file and try again.',
    ],
    [
      'missing-field.yaml',
      `description: no name
steps:
  - match: { operation: createPet }
    answer: { status: 201, body: { id: 1, categoryId: 1 } }
`,
      ':4:28: the forced body is not what createPet answers: the body needs the field "name"; createPet answers one animal ({id, name, categoryId, status?}); fix the file and try again.',
    ],
    [
      'unknown-key.yaml',
      `description: a key nobody has
steps:
  - match: { key: nobody-has-this }
    answer: { status: 503 }
`,
      ':3:14: match names the key "nobody-has-this", which this server does not have, so the step would never run; add it under keys; fix the file and try again.',
    ],
    [
      'after-forever.yaml',
      `description: a step after forever
steps:
  - times: forever
    answer: { status: 503 }
  - answer: { status: 500 }
`,
      ':5:5: this step never runs: step 1 before it answers forever; remove it, or give step 1 a number of times; fix the file and try again.',
    ],
    [
      'bad-times.yaml',
      `description: times typo
steps:
  - times: always
    answer: { status: 503 }
`,
      ':3:5: steps[0].times is not valid: how many matching requests this step answers (1 when left out), or "forever": the step never ends; fix the file and try again.',
    ],
  ])('%s', async (name, text, message) => {
    const path = file(name, text);
    await expect(startMock({ scenario: path })).rejects.toThrow(`petstore-mock: ${path}:`);
    await expect(startMock({ scenario: path })).rejects.toThrow(message);
  });
});

describe('journal details from a scenario file', () => {
  it('journal.details: true records headers and bodies from the start', async () => {
    const mock = await mockWith('description: recorded\njournal: { details: true }\n', 'recorded.yaml');
    await call(mock, '/v1/pets?limit=1');
    const [entry] = first(mock.requests({ details: true }), 1);
    expect(entry.details?.request.headers.authorization).toBe('Bearer demo…ree');
    expect(JSON.parse(entry.details?.response.body ?? '')).toHaveLength(1);
  });
});
