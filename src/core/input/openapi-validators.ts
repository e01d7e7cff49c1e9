// The validators of the OpenAPI document's schemas (request bodies, forced answers of scenarios),
// read as data by the schema checker, the same in Node and in a page: nothing is compiled or
// generated, no request waits for a compile, and the page carries no validator code.
import { INTEGER_FORMATS } from './openapi-ajv.js';
import { openapiDocument } from './openapi.js';
import { schemaChecker, type SchemaError } from './schema-check.js';

/** A validator as Ajv shapes one: true when the value fits, else false with its errors. */
export interface Validate {
  (value: unknown): boolean;
  errors: SchemaError[] | null;
}

/** The schemas of the document the mock validates with: request bodies, and forced answers of scenarios. */
export interface OpenApiValidators {
  newPet: Validate;
  pet: Validate;
  pets: Validate;
}

/** The document as a schema resource: its references (`#/components/schemas/…`) resolve in it. */
const DOCUMENT = { $id: 'openapi.json', components: { schemas: openapiDocument.components.schemas } };
const FORMATS = { int64: INTEGER_FORMATS.int64.validate, int32: INTEGER_FORMATS.int32.validate };

function validator(schema: keyof typeof openapiDocument.components.schemas): Validate {
  const check = schemaChecker({ $ref: `openapi.json#/components/schemas/${schema}` }, [DOCUMENT], FORMATS);
  const validate = (value: unknown): boolean => {
    const errors = check(value);
    validate.errors = errors.length === 0 ? null : errors;
    return errors.length === 0;
  };
  validate.errors = null as SchemaError[] | null;
  return validate;
}

let made: OpenApiValidators | undefined;

/** The validators, made on first use (reading the schemas, no compile). */
export function openApiValidators(): OpenApiValidators {
  return (made ??= { newPet: validator('NewPet'), pet: validator('Pet'), pets: validator('Pets') });
}
