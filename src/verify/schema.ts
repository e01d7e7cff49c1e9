// Answers judged against the project's OpenAPI document, so a real service is held to exactly the
// document the mock serves. verify compiles it with Ajv (openapi-ajv.ts, with the integer formats
// the mock checks too); the mock validates requests with schema-check.ts instead (through
// openapi-validators.ts), which gives Ajv's errors: test/core/schema-check.test.ts holds them equal.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { openApiAjv } from '../core/input/openapi-ajv.js';
import { requireAjv } from '../node-platform.js';
import { specOperation } from '../core/pipeline/operations-table.js';
import { openapiDocument } from '../core/input/openapi.js';
import type { OperationId } from '../core/types.js';

let ajv: Ajv2020 | undefined;

const BASE = openapiDocument.servers[0]?.url ?? '/v1';

/** The compiled schema at `pointer` in the document (Ajv keeps each one it compiled). */
function validator(pointer: string): ValidateFunction | undefined {
  ajv ??= openApiAjv(requireAjv());
  return ajv.getSchema(`openapi.json#${pointer}`);
}

function problems(validate: ValidateFunction, value: unknown): string | undefined {
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => {
      const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
      return `${e.instancePath || 'the body'} ${e.message ?? e.keyword}${extra}`;
    })
    .join('; ');
}

/** Whether a media type is JSON's, parameters aside. */
export function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * What is wrong with a successful answer's body by the document: undefined when it validates, or
 * when the document declares no body for that status (the behaviour rules judge the status).
 */
export function successBodyProblem(operation: OperationId, status: number, json: unknown): string | undefined {
  const { path, method } = specOperation(operation);
  const escaped = path.slice(BASE.length).replace(/~/g, '~0').replace(/\//g, '~1');
  const validate = validator(`/paths/${escaped}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`);
  if (!validate) return undefined;
  if (json === undefined) return 'the body is not JSON';
  return problems(validate, json);
}

/** What is wrong with an Error body by the document's `Error` schema, or undefined. */
export function errorBodyProblem(json: unknown): string | undefined {
  const validate = validator('/components/schemas/Error');
  if (!validate) throw new Error('the OpenAPI document has no Error schema');
  if (json === undefined) return 'the body is not JSON';
  return problems(validate, json);
}
