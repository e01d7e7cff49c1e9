// The specification's operations as scenario steps match them: from the operations table, with
// what the OpenAPI document says they answer (their statuses, their success and its schema).
import { openapiDocument } from '../input/openapi.js';
import { SPEC_OPERATIONS } from '../pipeline/operations-table.js';
import type { OperationId } from '../types.js';

type SuccessSchema = 'Pet' | 'Pets';
type DocOperation = { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
const docPaths = openapiDocument.paths as unknown as Record<string, Record<string, DocOperation>>;
const BASE = openapiDocument.servers[0]?.url ?? '/v1';
/** Each operation of the specification (the operations table) with a concrete path to test patterns on and the statuses the document declares for it. */
export const OPERATIONS: readonly { id: OperationId; method: string; path: string; statuses: string[]; success: { status: number; schema: SuccessSchema } }[] =
  SPEC_OPERATIONS.map((op) => {
    const responses = docPaths[op.path.slice(BASE.length)]?.[op.method.toLowerCase()]?.responses ?? {};
    const statuses = Object.keys(responses);
    const success = statuses.find((code) => code.startsWith('2')) ?? '200';
    const ref = Object.values(responses[success]?.content ?? {})[0]?.schema?.$ref ?? '';
    const schema: SuccessSchema = ref.endsWith('/Pets') ? 'Pets' : 'Pet';
    return { id: op.id, method: op.method, path: op.path.replace(/\{[^}/]+\}/g, '1'), statuses, success: { status: Number(success), schema } };
  });
