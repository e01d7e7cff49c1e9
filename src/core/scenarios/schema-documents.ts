// The shipped JSON Schemas (scenarios/*.schema.json) and their checks, the same in Node and in a
// page: the schemas are bundled as data and read by the schema checker, so no document waits for a
// schema to compile and nothing is compiled with `new Function`.
import scenarioSchema from '../../../scenarios/scenario.schema.json' with { type: 'json' };
import snapshotSchema from '../../../scenarios/snapshot.schema.json' with { type: 'json' };
import { schemaChecker, type SchemaError } from '../input/schema-check.js';

/** A checker made on first use. */
function lazily(make: () => (value: unknown) => SchemaError[]): (value: unknown) => SchemaError[] {
  let check: ((value: unknown) => SchemaError[]) | undefined;
  return (value) => (check ??= make())(value);
}

/** A scenario file's or object's errors against scenarios/scenario.schema.json (Ajv's, all of them, verbose). */
export const scenarioSchemaErrors = lazily(() => schemaChecker(scenarioSchema));

/** A snapshot's errors against scenarios/snapshot.schema.json, which refers to the scenario schema. */
export const snapshotSchemaErrors = lazily(() => schemaChecker(snapshotSchema, [scenarioSchema]));
