import type { Ajv2020, Options } from 'ajv/dist/2020.js';
import { openapiDocument } from './openapi.js';

/**
 * The document's integer formats. int64 values beyond 2^53 reach the checks as approximate
 * numbers; their exact range is checked apart. The mock's validators (openapi-validators.ts) and
 * the Ajv of `verify` and of the tests use these same functions.
 */
export const INTEGER_FORMATS = {
  int64: { type: 'number', validate: (n: number): boolean => Number.isInteger(n) },
  int32: { type: 'number', validate: (n: number): boolean => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 },
} as const;

/**
 * An Ajv that knows the OpenAPI document as `openapi.json`, so any schema in it can be reached by
 * pointer: what `verify` checks a real deployment's answers with, and the tests every answer.
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
