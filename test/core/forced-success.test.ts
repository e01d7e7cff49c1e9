// A scenario's forced success follows what the OpenAPI document gives the matched operation's
// success: its body's schema or no body at all, and a Location where the document gives one. The
// specification's successes all have a body, so the document is given, for this file only, an
// operation whose success has none, as a document describes a removal (204, no content).
import { describe, expect, it, vi } from 'vitest';
import type { OperationId } from '../../src/core/types.js';

vi.mock('../../src/core/input/openapi.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/input/openapi.js')>();
  const doc = structuredClone(real.openapiDocument) as unknown as { paths: Record<string, Record<string, unknown>> };
  const item = doc.paths['/pets/{petId}']!;
  item.delete = { operationId: 'removePet', responses: { '204': { description: 'Removed; no body.' }, '404': { description: 'No such animal.' } } };
  return { ...real, openapiDocument: doc };
});

const { OPERATIONS } = await import('../../src/core/scenarios/matchable-operations.js');
const { compileAnswer } = await import('../../src/core/scenarios/forced-answers.js');
const { forceAnswer } = await import('../../src/core/scenarios/scenario-runtime.js');
const { forcedOutcome } = await import('../../src/core/pipeline/outcome.js');
const { ScenarioSpecError } = await import('../../src/core/scenarios/scenario-problems.js');

const matching = (...ids: string[]): { operations: ReadonlySet<OperationId> } => ({ operations: new Set(ids as OperationId[]) });

/** The mistake `compileAnswer` names, as place and sentence. */
function mistake(run: () => unknown): { path: (string | number)[]; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof ScenarioSpecError)) throw error;
    return { path: [...error.path], message: error.message };
  }
}

describe('a forced success as the document gives it', () => {
  it('reads each success from the document: its schema or none, and where a Location points', () => {
    expect(Object.fromEntries(OPERATIONS.map((op) => [op.id, op.success]))).toEqual({
      listPets: { status: 200, schema: 'Pets' },
      createPet: { status: 201, schema: 'Pet', location: '/v1/pets' },
      getPet: { status: 200, schema: 'Pet' },
      removePet: { status: 204 },
    });
  });

  it('answers without a body where the success has none', () => {
    const compiled = compileAnswer({ status: 204 }, matching('removePet'), ['steps', 0, 'answer']);
    expect(compiled).toEqual({ kind: 'success', status: 204 });
    const forced = forceAnswer('gone', compiled, 'step 1');
    expect(forced).toEqual({ status: 204, reason: 'scenario gone, step 1: forced 204' });
    expect(forcedOutcome(forced!, 0)).toEqual({ status: 204, body: undefined, reason: 'scenario gone, step 1: forced 204', headers: undefined });
  });

  it.each<[string, object, string[], { path: (string | number)[]; message: string }]>([
    [
      'a body where the success has none',
      { status: 204, body: { id: 1 } },
      ['removePet'],
      { path: ['steps', 0, 'answer', 'body'], message: 'removePet answers 204 without a body; leave the body out' },
    ],
    [
      'no body where the success has one',
      { status: 200 },
      ['listPets'],
      { path: ['steps', 0, 'answer'], message: 'listPets answers 200 with a list of animals ({id, name, categoryId, status?}); give it as "body"' },
    ],
    [
      "another operation's success status",
      { status: 204 },
      ['removePet', 'getPet'],
      { path: ['steps', 0, 'answer', 'status'], message: 'getPet answers success with 200, not 204; narrow the match or use 200' },
    ],
  ])('refuses %s, naming its place', (_what, answer, ids, expected) => {
    expect(mistake(() => compileAnswer(answer as { status: number }, matching(...ids), ['steps', 0, 'answer']))).toEqual(expected);
  });

  it("gives a Location where the document's success has one, under the operation's path", () => {
    const body = { id: 77, name: 'Rex', categoryId: 1 };
    expect(compileAnswer({ status: 201, body }, matching('createPet'), ['steps', 0, 'answer'])).toEqual({
      kind: 'success',
      status: 201,
      body: JSON.stringify(body),
      location: '/v1/pets/77',
    });
    expect(compileAnswer({ status: 200, body }, matching('getPet'), ['steps', 0, 'answer'])).toEqual({
      kind: 'success',
      status: 200,
      body: JSON.stringify(body),
    });
  });
});
