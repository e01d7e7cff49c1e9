// Which operations are deprecated is read from the OpenAPI document's `deprecated` flags through the
// operations table; no rule names an operation. The whole pipeline and audit over a document that
// deprecates another operation: deprecation-follows-document.test.ts.
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/core/input/openapi.js';
import { deprecatedById, deprecatedOperation } from '../../src/core/pipeline/deprecation.js';
import { SPEC_OPERATIONS, SPEC_TABLE, specOperationsOf } from '../../src/core/pipeline/operations-table.js';

type Flagged = { deprecated?: boolean };
type Paths = Record<string, Record<string, Flagged>>;

/** A copy of the document in which exactly the operations at `marked` ("GET /pets", …) are deprecated. */
function documentMarking(...marked: string[]): typeof openapiDocument {
  const copy = structuredClone(openapiDocument) as typeof openapiDocument;
  for (const [path, item] of Object.entries(copy.paths as unknown as Paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (marked.includes(`${method.toUpperCase()} ${path}`)) op.deprecated = true;
      else delete op.deprecated;
    }
  }
  return copy;
}

describe('the deprecated operations of the current document', () => {
  it('are exactly getPet, GET /v1/pets/{petId}', () => {
    expect(SPEC_OPERATIONS.filter((o) => o.deprecated).map((o) => `${o.id} ${o.method} ${o.path}`)).toEqual(['getPet GET /v1/pets/{petId}']);
    expect([...deprecatedById(SPEC_OPERATIONS).keys()]).toEqual(['getPet']);
  });

  it.each([
    ['GET', '/v1/pets/7', 'getPet'],
    ['HEAD', '/v1/pets/7', 'getPet'],
    ['GET', '/v1/pets', undefined],
    ['POST', '/v1/pets', undefined],
    ['DELETE', '/v1/pets/7', undefined],
    ['GET', '/v1/openapi.json', undefined],
    ['GET', '/v1/pets/7/x', undefined],
  ])('%s %s lands on the deprecated operation %s', (method, path, id) => {
    expect(deprecatedOperation(SPEC_TABLE.route(method, path))?.id).toBe(id);
  });

  it('has no deprecated operation where there is no route', () => {
    expect(deprecatedOperation(undefined)).toBeUndefined();
  });
});

describe('the table built from a document', () => {
  it('reads the current document as SPEC_OPERATIONS has it', () => {
    expect(specOperationsOf(openapiDocument)).toEqual(SPEC_OPERATIONS);
  });

  it.each([
    [['GET /pets'], ['listPets']],
    [['POST /pets'], ['createPet']],
    [
      ['GET /pets', 'GET /pets/{petId}'],
      ['listPets', 'getPet'],
    ],
    [[], []],
  ])('deprecates the operations the document marks %j, whatever their names: %j', (marked, ids) => {
    const operations = specOperationsOf(documentMarking(...marked));
    expect(operations.map((o) => o.id)).toEqual(SPEC_OPERATIONS.map((o) => o.id));
    expect(operations.filter((o) => o.deprecated).map((o) => o.id)).toEqual(ids);
    expect([...deprecatedById(operations).keys()]).toEqual(ids);
  });

  it('takes only `deprecated: true` as deprecated', () => {
    const copy = documentMarking();
    (copy.paths as unknown as Paths)['/pets']!.get!.deprecated = false;
    expect(specOperationsOf(copy).some((o) => o.deprecated)).toBe(false);
  });
});
