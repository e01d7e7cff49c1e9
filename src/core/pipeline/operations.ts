// The answers of the specification's operations (each its module's, core/operations), from what the
// home of state read or wrote, and of the operations a scenario declares.
import { answerIndex, type DeclaredOperation } from '../scenarios/declared-operations.js';
import type { OperationData, StateAsk } from '../state/state-port.js';
import { SPEC_MODULES } from '../operations/index.js';
import type { Outcome } from './outcome.js';

/** The operation's answer; a refusal of the store or an unknown id is thrown as MockError. */
export function operationOutcome(plan: StateAsk, data: OperationData | undefined): Outcome {
  if (data !== undefined && 'error' in data) throw data.error;
  if (plan.operation === undefined) throw new Error('unreachable: an answer of an operation is asked only when one ran');
  return SPEC_MODULES[plan.operation].outcome(plan.input, data);
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
