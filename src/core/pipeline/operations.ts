// The answers of the specification's three operations, from what the home of state read or wrote,
// and of the operations a scenario declares.
import { MockError } from '../errors.js';
import { answerIndex, type DeclaredOperation } from '../scenarios/declared-operations.js';
import type { OperationData, StateAsk } from '../state/state-port.js';
import type { PetStatus } from '../types.js';
import type { Outcome } from './outcome.js';

const listReasons = new Map<string, string>();

/** The journal's reason for a list; there are only a few hundred, so each is built once. */
function listReason(limit: number, status: PetStatus | undefined): string {
  const key = `${status ?? ''}${limit}`;
  let reason = listReasons.get(key);
  if (reason === undefined) {
    reason = `listed animals (limit ${limit}${status ? `, status ${status}` : ''})`;
    listReasons.set(key, reason);
  }
  return reason;
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

/** A declared operation's answer for its call numbered `call` (from 0): the answers in order, the last repeating. */
export function declaredOutcome(op: DeclaredOperation, call: number): Outcome {
  const index = answerIndex(op, call);
  const answer = op.answers[index];
  if (answer === undefined) throw new Error(`unreachable: declared operation ${op.operationId} has no answers`);
  const outcome: Outcome = { status: answer.status, reason: `declared ${op.operationId}, answer ${index + 1} of ${op.answers.length}` };
  if (answer.body !== undefined) outcome.body = answer.body;
  if (answer.headers !== undefined) outcome.headers = { ...answer.headers };
  return outcome;
}
