// The specification's operations are registered once by operationId (core/operations, and their
// Redis parts in state-redis/operations); the OpenAPI document gives their routes. These tests hold
// the registrations to the document, so a new operation is missed nowhere; the registries are
// written from the document by scripts/operation-registry.mjs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentOperationIds, registryTexts } from '../../scripts/operation-registry.mjs';
import { openapiDocument } from '../../src/core/input/openapi.js';
import { OPERATION_IDS, SPEC_MODULES } from '../../src/core/operations/index.js';
import { SPEC_OPERATIONS } from '../../src/core/pipeline/operations-table.js';
import { OPERATIONS_LUA, REDIS_OPERATIONS } from '../../src/state-redis/operations/index.js';

type DocOperation = { operationId: string; requestBody?: unknown };
const docPaths = openapiDocument.paths as unknown as Record<string, Record<string, DocOperation>>;
const docOperations = Object.values(docPaths).flatMap((item) => Object.values(item));

describe('the table of the specification’s operations', () => {
  it('registers exactly the OpenAPI document’s operations, in its order', () => {
    expect(OPERATION_IDS).toEqual(docOperations.map((o) => o.operationId));
    expect(SPEC_OPERATIONS.map((o) => o.id)).toEqual(OPERATION_IDS);
  });

  it.each(docOperations.map((o) => [o.operationId, o.requestBody !== undefined] as const))(
    '%s reads a body exactly when the document gives it one (%s)',
    (id, hasBody) => {
      expect(SPEC_MODULES[id as keyof typeof SPEC_MODULES].readsBody).toBe(hasBody);
    },
  );

  it('gives every operation its Redis part, under a script name of its own', () => {
    expect(Object.keys(REDIS_OPERATIONS)).toEqual(OPERATION_IDS);
    const names = Object.values(REDIS_OPERATIONS).map((o) => o.op);
    expect(new Set(names).size).toBe(names.length);
    // '' (no operation), 'none' (nothing to read or write) and 'decl' (a declared operation) are the script's own.
    for (const name of names) expect(['', 'none', 'decl']).not.toContain(name);
  });

  it.each(Object.values(REDIS_OPERATIONS).map((o) => [o.op] as const))('runs the Lua of %s only under its name', (name) => {
    expect(OPERATIONS_LUA.match(new RegExp(`op == '${name}' then`, 'g'))).toHaveLength(1);
  });
});

describe('the registries written from the document', () => {
  it('are up to date with the OpenAPI document', () => {
    const ids = documentOperationIds();
    expect(ids).toEqual(OPERATION_IDS);
    for (const [path, text] of Object.entries(registryTexts(ids))) expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('register an operation the document gains by its module named for its id, on both homes', () => {
    const source = `${readFileSync('src/core/input/openapi.ts', 'utf8')}\n      delete: { operationId: 'deletePet' },`;
    const ids = documentOperationIds(source);
    expect(ids).toEqual([...OPERATION_IDS, 'deletePet']);
    const texts = Object.values(registryTexts(ids));
    expect(texts).toHaveLength(2);
    for (const text of texts) {
      expect(text).toContain(`import { deletePet } from './delete-pet.js';`);
      expect(text).toContain('  deletePet: erased(deletePet),');
    }
  });

  it('refuses a document without operationIds, naming the file', () => {
    expect(() => documentOperationIds('export const openapiDocument = {};')).toThrow(/no operationId found in src\/core\/input\/openapi\.ts/);
  });
});
