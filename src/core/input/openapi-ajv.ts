import type { Ajv2020, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { named } from '../errors.js';
import { openapiDocument } from './openapi.js';

/**
 * The document's integer formats. int64 values beyond 2^53 reach Ajv as approximate numbers; their
 * exact range is checked apart. The validators generated at build time for the browser import
 * these same objects (scripts/browser-validators.mjs).
 */
export const INTEGER_FORMATS = {
  int64: { type: 'number', validate: (n: number): boolean => Number.isInteger(n) },
  int32: { type: 'number', validate: (n: number): boolean => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 },
} as const;

/** The schemas of the document the mock validates with: request bodies, and forced answers of scenarios. */
export interface OpenApiValidators {
  newPet: ValidateFunction;
  pet: ValidateFunction;
  pets: ValidateFunction;
}

/** Where each validator's schema is in the document, as Ajv reaches it. */
export const OPENAPI_VALIDATOR_REFS: Readonly<Record<keyof OpenApiValidators, string>> = {
  newPet: 'openapi.json#/components/schemas/NewPet',
  pet: 'openapi.json#/components/schemas/Pet',
  pets: 'openapi.json#/components/schemas/Pets',
};

/**
 * An Ajv that knows the OpenAPI document as `openapi.json`, so any schema in it can be reached by
 * pointer. The request validator, the build's generated validators and the tests' check of every
 * answer share this set-up; `options` adds to it (the build asks for source code).
 */
export function openApiAjv(Ajv: typeof Ajv2020, options: Options = {}): Ajv2020 {
  const ajv = new Ajv({ allErrors: true, strict: true, ...options });
  // The document's top-level OpenAPI fields are not JSON Schema keywords; refs still resolve into them.
  ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']);
  ajv.addFormat('int64', INTEGER_FORMATS.int64);
  ajv.addFormat('int32', INTEGER_FORMATS.int32);
  ajv.addSchema(openapiDocument, 'openapi.json');
  return ajv;
}

/** Compiles the validators with Ajv in the running process: what Node does, on the first body that needs them. */
export function compileOpenApiValidators(Ajv: typeof Ajv2020): OpenApiValidators {
  const ajv = openApiAjv(Ajv);
  const get = (name: keyof OpenApiValidators): ValidateFunction => {
    const found = ajv.getSchema(OPENAPI_VALIDATOR_REFS[name]);
    if (!found) throw new Error(named(`the OpenAPI document has no schema at ${OPENAPI_VALIDATOR_REFS[name]}`));
    return found;
  };
  return { newPet: get('newPet'), pet: get('pet'), pets: get('pets') };
}
