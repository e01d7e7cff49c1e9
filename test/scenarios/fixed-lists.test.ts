// Each fixed list lives once in code; the shipped JSON Schemas, which tools outside read as they
// are, repeat them and are held to the code's list here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PET_STATUSES } from '../../src/core/input/openapi.js';
import { OPERATION_IDS } from '../../src/core/operations/index.js';
import { OPERATIONS } from '../../src/core/scenarios/matchable-operations.js';
import { USAGE_WINDOWS } from '../../src/core/scenarios/scenario-limits.js';
import { PLAN_NAMES } from '../../src/core/state/plans.js';
import { CONNECTION_FAULTS } from '../../src/core/types.js';

type Json = { [name: string]: Json } | Json[] | string | number | boolean | null;

const schema = (name: string): Json => JSON.parse(readFileSync(`scenarios/${name}.schema.json`, 'utf8')) as Json;

/** Every `enum` of the schema under a property called `name`, and the property names of the object there. */
function listsAt(node: Json, name: string, found: unknown[][] = []): unknown[][] {
  if (Array.isArray(node)) for (const item of node) listsAt(item, name, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === name && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        if (Array.isArray(value.enum)) found.push(value.enum);
        if (value.properties !== null && typeof value.properties === 'object' && !Array.isArray(value.properties)) found.push(Object.keys(value.properties));
      }
      listsAt(value, name, found);
    }
  }
  return found;
}

describe('the fixed lists of the schemas are the code’s', () => {
  it.each([
    ['scenario', 'fault', CONNECTION_FAULTS, 1],
    ['scenario', 'operation', OPERATION_IDS, 1],
    ['scenario', 'plan', PLAN_NAMES, 1],
    ['scenario', 'plans', PLAN_NAMES, 1],
    ['snapshot', 'plan', PLAN_NAMES, 1],
  ] as const)('%s.schema.json: every %s list is the code’s', (file, name, list, count) => {
    const lists = listsAt(schema(file), name);
    expect(lists).toHaveLength(count);
    for (const found of lists) expect(found).toEqual([...list]);
  });

  it('scenario.schema.json: a usage line fills the windows the code names, beside its key and ban', () => {
    const usage = (schema('scenario') as { properties: { usage: { items: { properties: Record<string, unknown> } } } }).properties.usage;
    expect(Object.keys(usage.items.properties)).toEqual(['key', ...USAGE_WINDOWS, 'bannedFor']);
  });

  it('snapshot.schema.json: an animal’s status is one of the OpenAPI document’s', () => {
    const strings = listsAt(schema('snapshot'), 'status').filter((list) => list.every((v) => typeof v === 'string'));
    expect(strings).toEqual([[...PET_STATUSES]]);
  });

  it('scenario.schema.json: a step matches the methods of the specification’s operations, and forces their success statuses', () => {
    const match = (schema('scenario') as { definitions: { match: { properties: { method: { enum: string[] } } } } }).definitions.match;
    const methods = new Set(OPERATIONS.map((o) => o.method));
    // HEAD is answered as GET, so a step may match it wherever GET is an operation.
    if (methods.has('GET')) methods.add('HEAD');
    expect(new Set(match.properties.method.enum)).toEqual(methods);
    const statuses = listsAt(schema('scenario'), 'status').filter((list) => list.every((v) => typeof v === 'number' && v < 300));
    expect(statuses).toEqual([[...new Set(OPERATIONS.map((o) => o.success.status))]]);
  });
});
