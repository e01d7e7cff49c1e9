import { Ajv, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/index.js';
import { schemaChecker } from '../../src/core/input/schema-check.js';
import { openApiAjv } from '../../src/core/input/openapi-ajv.js';
import { openApiValidators } from '../../src/core/input/openapi-validators.js';
import { pickError } from '../../src/core/scenarios/schema-errors.js';
import { schemaForPage } from '../../scripts/page-schemas.mjs';

// The schema checker must give Ajv's errors exactly (the messages of scenario and snapshot mistakes
// are built from them), for documents right and wrong: the shipped scenarios and a snapshot, and
// those documents with one part replaced, removed or added at random.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const read = (file: string): { [key: string]: Json } => JSON.parse(readFileSync(`scenarios/${file}`, 'utf8')) as { [key: string]: Json };
const scenarioSchema = read('scenario.schema.json');
const snapshotSchema = read('snapshot.schema.json');
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });
ajv.addSchema(scenarioSchema);
const byAjv = { scenario: ajv.compile(scenarioSchema), snapshot: ajv.compile(snapshotSchema) };
const ours = { scenario: schemaChecker(scenarioSchema), snapshot: schemaChecker(snapshotSchema, [scenarioSchema]) };
// The page's build bundles the scenario schema without the prose no message quotes.
const forPage = schemaChecker(schemaForPage(scenarioSchema) as typeof scenarioSchema);

function ajvErrors(which: 'scenario' | 'snapshot', value: unknown): ErrorObject[] {
  const validate = byAjv[which];
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

const shipped = readdirSync('scenarios')
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => parse(readFileSync(`scenarios/${file}`, 'utf8')) as Json);

function snapshotDocument(): Json {
  const mock = createFetchHandler({ scenario: 'create-fails-third', pets: 3 });
  return JSON.parse(JSON.stringify(mock.snapshot())) as Json;
}

/** Every place in a document, as a path of keys. */
function places(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => places(item, [...at, i]))];
  if (value !== null && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([key, item]) => places(item, [...at, key]))];
  return here;
}

/** The document with the value at `path` replaced (`undefined`: removed), or a key added to the object there. */
function changed(document: Json, path: (string | number)[], change: { kind: 'set' | 'remove' | 'add'; key: string; value: Json }): Json {
  const copy = structuredClone(document);
  if (path.length === 0) return change.kind === 'set' ? change.value : copy;
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string, Json>)[key] as Json;
  const last = path[path.length - 1] as string | number;
  const target = parent as Record<string | number, Json>;
  if (change.kind === 'set') target[last] = change.value;
  else if (change.kind === 'remove') {
    if (Array.isArray(target)) target.splice(last as number, 1);
    else delete target[last];
  } else {
    const into = target[last];
    if (into !== null && typeof into === 'object' && !Array.isArray(into)) into[change.key] = change.value;
  }
  return copy;
}

const values: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    '',
    'x',
    '2026-01-01T00:00:00Z',
    '10/m',
    '90s',
    'GET',
    '/v1/pets',
    -1,
    0,
    1,
    1.5,
    429,
    503,
    2 ** 53,
    true,
    null,
    [],
    {},
    { status: 418 },
    { name: 'x' },
    // YAML's .inf and .nan: no numbers to Ajv, and none to the checker.
    Number.POSITIVE_INFINITY as unknown as Json,
    Number.NaN as unknown as Json,
  ),
);
const keys = fc.constantFrom('name', 'description', 'status', 'steps', 'answer', 'headers', 'x-y', 'bad key', 'constructor', '__proto__', 'limits', 'a/b~c');

describe('the schema checker gives the errors Ajv gives', () => {
  it.each(shipped.map((doc, i) => [i, doc]))('shipped scenario %i: no errors', (_i, doc) => {
    expect(ours.scenario(doc)).toEqual([]);
    expect(ajvErrors('scenario', doc)).toEqual([]);
  });

  it('a snapshot: no errors', () => {
    const doc = snapshotDocument();
    expect(ours.snapshot(doc)).toEqual([]);
  });

  it.each([
    ['scenario', () => shipped],
    ['snapshot', () => [snapshotDocument()]],
  ] as const)('%s documents changed at random: the same errors, in the same order', (which, documents) => {
    const docs = documents();
    const arbitrary = fc
      .nat(docs.length - 1)
      .chain((i) => fc.tuple(fc.constant(docs[i] as Json), fc.constantFrom(...places(docs[i] as Json))))
      .chain(([doc, path]) =>
        fc.tuple(
          fc.constant(doc),
          fc.constant(path),
          fc.record({ kind: fc.constantFrom('set' as const, 'remove' as const, 'add' as const), key: keys, value: values }),
        ),
      );
    let wrong = 0;
    fc.assert(
      fc.property(arbitrary, ([doc, path, change]) => {
        const value = changed(doc, path, change);
        const expected = ajvErrors(which, value);
        if (expected.length > 0) wrong++;
        expect(ours[which](value)).toEqual(expected);
        if (which === 'scenario') expect(pickError(forPage(value))).toEqual(pickError(expected));
      }),
      { numRuns: 1000, seed: Number(process.env.SCHEMA_CHECK_SEED ?? 46) },
    );
    // The random changes made many documents wrong: the comparison is of errors, not of empty lists.
    expect(wrong).toBeGreaterThan(350);
  });

  it('refuses a schema keyword it does not know, naming it', () => {
    expect(() => schemaChecker({ type: 'object', patternProperties: {} })).toThrow(/keyword patternProperties .*src\/core\/input\/schema-check.ts/);
  });
});

// The mock's validators of the OpenAPI schemas (request bodies, forced answers) are the same
// checker over the document: Ajv's errors again, field for field, for bodies right and wrong.
describe("the OpenAPI document's validators give the errors Ajv gives", () => {
  const openapi = openApiAjv(Ajv2020, { verbose: true });
  const NAMES = { newPet: 'NewPet', pet: 'Pet', pets: 'Pets' } as const;
  const mock = openApiValidators();
  const byAjvOpenApi = (name: keyof typeof NAMES, value: unknown): unknown[] => {
    const validate = openapi.getSchema(`openapi.json#/components/schemas/${NAMES[name]}`);
    if (!validate) throw new Error(`no schema ${NAMES[name]}`);
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
  const oursOpenApi = (name: keyof typeof NAMES, value: unknown): unknown[] => (mock[name](value) ? [] : [...(mock[name].errors ?? [])]);
  const pets: fc.Arbitrary<unknown> = fc.dictionary(
    fc.constantFrom('id', 'name', 'categoryId', 'status', 'extra', 'constructor'),
    fc.oneof(
      values,
      fc.constantFrom(Number.NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31) - 1, 2 ** 63, -0, 0.5, 'available', 'sold', 'lost'),
    ) as fc.Arbitrary<unknown>,
  );

  it.each([
    ['a body right', { name: 'Rex', categoryId: 3, status: 'available' }],
    ['no fields', {}],
    ['not an object', [1]],
    ['a fraction and a string', { name: 1, categoryId: 1.5 }],
    ['NaN and infinity, no numbers to Ajv', { name: 'a', categoryId: Number.NaN, id: Infinity }],
    ['unknown fields and a wrong status', { name: 'a', categoryId: 1, status: 'lost', extra: 1, more: 2 }],
    ['a list with a wrong animal', [{ id: 1, name: 'a', categoryId: 1 }, { id: 'x' }, 3]],
  ])('%s', (_what, value) => {
    for (const name of ['newPet', 'pet', 'pets'] as const) expect(oursOpenApi(name, value)).toEqual(byAjvOpenApi(name, value));
  });

  it('animals and lists made at random: the same errors, in the same order', () => {
    let wrong = 0;
    fc.assert(
      fc.property(fc.oneof(pets, fc.array(pets, { maxLength: 3 })), (value) => {
        for (const name of ['newPet', 'pet', 'pets'] as const) {
          const expected = byAjvOpenApi(name, value);
          if (expected.length > 0) wrong++;
          expect(oursOpenApi(name, value)).toEqual(expected);
        }
      }),
      { numRuns: 500, seed: 47 },
    );
    expect(wrong).toBeGreaterThan(500);
  });
});
