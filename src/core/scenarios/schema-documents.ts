// The shipped JSON Schemas (scenarios/*.schema.json) and their checks, the same in Node and in a
// page: the schemas are bundled as data and read by the schema checker, so no document waits for a
// schema to compile and nothing is compiled with `new Function`.
import scenarioSchema from '../../../scenarios/scenario.schema.json' with { type: 'json' };
import snapshotSchema from '../../../scenarios/snapshot.schema.json' with { type: 'json' };
import { schemaChecker, type SchemaError } from '../input/schema-check.js';

// Two plain functions, not one maker called twice at the top: a bundle that never checks a snapshot
// (the browser build) then drops the snapshot schema.
let scenarioCheck: ((value: unknown) => SchemaError[]) | undefined;
let snapshotCheck: ((value: unknown) => SchemaError[]) | undefined;

/** A scenario file's or object's errors against scenarios/scenario.schema.json (Ajv's, all of them, verbose). */
export function scenarioSchemaErrors(value: unknown): SchemaError[] {
  scenarioCheck ??= schemaChecker(scenarioSchema);
  return scenarioCheck(value);
}

/** A snapshot's errors against scenarios/snapshot.schema.json, which refers to the scenario schema. */
export function snapshotSchemaErrors(value: unknown): SchemaError[] {
  snapshotCheck ??= schemaChecker(snapshotSchema, [scenarioSchema]);
  return snapshotCheck(value);
}
