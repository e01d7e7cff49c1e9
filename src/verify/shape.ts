// The verdict on an answer's body, reached once when it arrives: the log keeps this verdict
// rather than the body, so the rules judging every answer at the end hold no bodies in memory.
import { LARGEST_LIST_BYTES, MAX_ANSWER_BYTES } from './read-answer.js';
import type { OperationId } from '../core/types.js';
import { errorBodyProblem, isJson, successBodyProblem } from './schema.js';
import type { Exchange } from './types.js';

const bytes = (n: number): string => n.toLocaleString('en-US');

/** What a rule says of a body verify stopped reading. */
export const CUT_BODY = `a body larger than ${bytes(MAX_ANSWER_BYTES)} bytes, the most verify reads of one answer (the largest real one, 100 animals with the longest fields, is ${bytes(LARGEST_LIST_BYTES)} bytes)`;

/** Whether an answer's body is judged as an Error (4xx and 5xx but 429, whose body the specification leaves open). */
export function isErrorAnswer(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status !== 429;
}

/** Whether an answer's body is judged against the operation's schema. */
export function isSuccess(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/**
 * What is wrong with the body, worded to follow "GET /v1/pets answered 200 ", or undefined:
 * an error answer must be an application/json Error repeating its status, a success valid by
 * the document. Other answers (redirects, 429) have no body to judge.
 */
export function shapeProblem(operation: OperationId, response: Exchange['response'], cut: boolean, json: unknown): string | undefined {
  if (!response) return undefined;
  const error = isErrorAnswer(response.status);
  if (!error && !isSuccess(response.status)) return undefined;
  const type = response.headers['content-type'];
  if (!isJson(type)) return `with Content-Type ${JSON.stringify(type ?? null)}; send application/json`;
  if (cut) return `with ${CUT_BODY}`;
  if (error) {
    const problem = errorBodyProblem(json);
    if (problem) return `with a body that is not an Error: ${problem}; send {code, message, status}`;
    const status = (json as { status: number }).status;
    return status === response.status ? undefined : `with an Error whose status is ${status}; its status repeats the HTTP status`;
  }
  const problem = successBodyProblem(operation, response.status, json);
  return problem ? `with a body the document does not allow: ${problem}` : undefined;
}
