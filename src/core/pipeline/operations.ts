// The answers of the specification's three operations, from what the home of state read or wrote.
import { MockError } from '../errors.js';
import type { OperationData, StateAsk } from '../state/state-port.js';
import type { PetStatus } from '../types.js';
import type { Outcome } from './outcome.js';

/** The journal's reason for a list. */
function listReason(limit: number, status: PetStatus | undefined): string {
  return `listed animals (limit ${limit}${status ? `, status ${status}` : ''})`;
}

/** The operation's answer; a refusal of the store or an unknown id is thrown as MockError. */
export function operationOutcome(plan: StateAsk, data: OperationData | undefined): Outcome {
  if (data !== undefined && 'error' in data) throw data.error;
  if (plan.list) {
    if (data === undefined) throw new Error('unreachable: a home answers every list with a body');
    return { status: 200, body: data.body, reason: listReason(plan.list.limit, plan.list.status) };
  }
  if (plan.create) {
    if (data?.createdId === undefined) throw new Error('unreachable: a home answers every create with an id or a refusal');
    return { status: 201, body: data.body, headers: { Location: `/v1/pets/${data.createdId}` }, reason: `created animal ${data.createdId}` };
  }
  const id = plan.get?.id;
  if (data === undefined) throw new MockError('pet_not_found', `No animal has id ${id}. List the animals with GET /v1/pets to find a valid id.`);
  return { status: 200, body: data.body, reason: `found animal ${id}` };
}
