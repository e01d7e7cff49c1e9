import { Ajv, type ErrorObject } from 'ajv';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/index.js';
import { schemaChecker } from '../../src/core/input/schema-check.js';
import { pickError } from '../../src/core/scenarios/schema-errors.js';
import { schemaForPage } from '../../scripts/browser-validators.mjs';

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
