// listPets: GET /v1/pets, a page of the animals, optionally of one status.
import { parseListQuery, type ListQuery } from '../input/validation.js';
import type { PetStatus } from '../types.js';
import type { SpecOperationModule } from './spec-operation.js';

/** A list's input: the page size and the status asked for, as the query gave them. */
export type ListInput = ListQuery;

/** The journal's reason for a list (built each time: a memo of it saved under 1% of a list). */
function listReason(limit: number, status: PetStatus | undefined): string {
  return `listed animals (limit ${limit}${status ? `, status ${status}` : ''})`;
}

export const listPets: SpecOperationModule<ListInput> = {
  readsBody: false,
  parse: (req) => parseListQuery(req.query),
  run: (store, input) => ({ body: store.listBody(input.limit, input.status) }),
  outcome(input, data) {
    if (data === undefined || 'error' in data) throw new Error('unreachable: a home answers every list with a body');
    return { status: 200, body: data.body, reason: listReason(input.limit, input.status) };
  },
};
