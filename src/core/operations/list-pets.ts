// listPets: GET /v1/pets, a page of the animals, optionally of one status.
import { parseListQuery } from '../input/validation.js';
import type { PetStatus } from '../types.js';
import type { SpecOperationModule } from './spec-operation.js';

/** A list's input: the page size and the status asked for. */
export interface ListInput {
  limit: number;
  status?: PetStatus;
}

const reasons = new Map<string, string>();

/** The journal's reason for a list; there are only a few hundred, so each is built once. */
function listReason(limit: number, status: PetStatus | undefined): string {
  const key = `${status ?? ''}${limit}`;
  let reason = reasons.get(key);
  if (reason === undefined) {
    reason = `listed animals (limit ${limit}${status ? `, status ${status}` : ''})`;
    reasons.set(key, reason);
  }
  return reason;
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
