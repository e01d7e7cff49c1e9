import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/core/input/openapi.js';

// The docs that list the API's operations, named in one place: an operation added to the OpenAPI
// document fails this test for each of them until it is written in, and a doc that comes to list
// every operation must join the list. A doc "names" an operation by its operationId or by its
// method and path (`POST /v1/pets`).
const OPERATION_DOCS = {
  'README.md': 'what the mock fakes, and the shipped scenarios',
  'docs/inspection.md': 'the journal and its filters by operation',
  'docs/scenarios.md': 'steps matched by operation, and the operations a scenario cannot declare',
  'docs/verify.md': 'the rules verify checks against a real deployment, per operation',
};

const BASE = openapiDocument.servers[0]?.url ?? '/v1';
const operations = Object.entries(openapiDocument.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, { operationId: string }>).map(([method, op]) => ({
    id: op.operationId,
    method: method.toUpperCase(),
    path: `${BASE}${path}`,
  })),
);
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const names = (text: string, op: (typeof operations)[number]): boolean =>
  new RegExp(`\\b${op.id}\\b`).test(text) || new RegExp(`${op.method}\`?\\s+\`?${escape(op.path)}(?![/\\w{])`).test(text);
const docs = [
  'README.md',
  'CONTRIBUTING.md',
  'src/README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the docs that list the operations', () => {
  it('the document has operations to look for', () => {
    expect(operations.map((op) => op.id)).toEqual(expect.arrayContaining(['listPets', 'createPet', 'getPet']));
  });

  it.each(Object.keys(OPERATION_DOCS))('%s names every operation of the OpenAPI document', (doc) => {
    const text = readFileSync(doc, 'utf8');
    expect(operations.filter((op) => !names(text, op)).map((op) => `${op.id} (${op.method} ${op.path})`)).toEqual([]);
  });

  it('every other doc names fewer than all of them (else it lists them, and joins OPERATION_DOCS)', () => {
    const listing = docs.filter((doc) => !(doc in OPERATION_DOCS) && operations.every((op) => names(readFileSync(doc, 'utf8'), op)));
    expect(listing).toEqual([]);
  });
});
