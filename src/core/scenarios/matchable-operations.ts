// The specification's operations as scenario steps match them: from the operations table, with
// what the OpenAPI document says they answer (their statuses, their success: its schema, if it has
// a body, and whether it says where a created animal lives).
import { openapiDocument } from '../input/openapi.js';
import { API_BASE, SPEC_OPERATIONS } from '../pipeline/operations-table.js';
import type { OperationId } from '../types.js';

type SuccessSchema = 'Pet' | 'Pets';
type DocResponse = { content?: Record<string, { schema?: { $ref?: string } }>; headers?: Record<string, unknown> };
type DocOperation = { responses: Record<string, DocResponse> };

/** An operation's success: its status, its body's schema (none for a success without a body), the path a `Location` names an id under. */
export interface Success {
  status: number;
  schema?: SuccessSchema;
  location?: string;
}
const docPaths = openapiDocument.paths as unknown as Record<string, Record<string, DocOperation>>;
/** Each operation of the specification (the operations table) with a concrete path to test patterns on and the statuses the document declares for it. */
export const OPERATIONS: readonly { id: OperationId; method: string; path: string; statuses: string[]; success: Success }[] = SPEC_OPERATIONS.map((op) => {
  const responses = docPaths[op.path.slice(API_BASE.length)]?.[op.method.toLowerCase()]?.responses ?? {};
  const statuses = Object.keys(responses);
  const success = statuses.find((code) => code.startsWith('2')) ?? '200';
  const response = responses[success];
  const answer: Success = { status: Number(success) };
  if (response?.content !== undefined) answer.schema = Object.values(response.content)[0]?.schema?.$ref?.endsWith('/Pets') ? 'Pets' : 'Pet';
  // A created animal is found under the collection it was created in (a path without parameters).
  if (response?.headers?.Location !== undefined && !op.path.includes('{')) answer.location = op.path;
  return { id: op.id, method: op.method, path: op.path.replace(/\{[^}/]+\}/g, '1'), statuses, success: answer };
});
