// The OpenAPI document `GET /v1/openapi.json` serves: the specification's, plus the operations the
// session's scenario declares, each marked `x-declared: true` so a reader tells them apart.
import { openapiDocument } from '../input/openapi.js';
import { templateKey, type DeclaredOperation } from '../scenarios/declared-operations.js';
import { API_BASE, perDeclared } from './operations-table.js';
import type { Outcome } from './outcome.js';

const REASON = 'served the OpenAPI document';
const SPEC_OUTCOME: Outcome = { status: 200, body: JSON.stringify(openapiDocument), reason: REASON };

/** The document's answer under a session's settings, made once per settings. */
export const documentOutcome = perDeclared<Outcome>(SPEC_OUTCOME, (declared) => ({
  status: 200,
  body: JSON.stringify(servedDocument(declared)),
  reason: REASON,
}));

/** The specification's document with the declared operations added under their paths. */
function servedDocument(declared: readonly DeclaredOperation[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(openapiDocument.paths)) paths[path] = { ...item };
  for (const op of declared) {
    const relative = op.path.slice(API_BASE.length);
    // Templates that differ only in their parameters' names are one path in OpenAPI: join the one already there.
    const key = Object.keys(paths).find((p) => templateKey(p) === templateKey(relative)) ?? relative;
    const names = [...key.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1] ?? '');
    const responses: Record<string, unknown> = {};
    for (const answer of op.answers) {
      const response: Record<string, unknown> = { description: `Declared by the scenario (${op.operationId}).` };
      if (answer.body !== undefined) response.content = { 'application/json': { example: JSON.parse(answer.body) as unknown } };
      responses[String(answer.status)] ??= response;
    }
    const operation: Record<string, unknown> = {
      operationId: op.operationId,
      summary: `${op.method} ${op.path}, declared by the session's scenario`,
      'x-declared': true,
      responses,
    };
    if (names.length > 0) operation.parameters = names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    paths[key] = { ...paths[key], [op.method.toLowerCase()]: operation };
  }
  return { ...openapiDocument, paths };
}
