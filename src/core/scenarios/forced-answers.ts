// A scenario's forced answers (a step's or a chaos draw's): an error of the catalogue, a success
// as the matched operations answer it (the document's body, or none), a fault, or the normal answer.
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js';
import { schemaProblems } from '../input/validation.js';
import { OPERATIONS } from './matchable-operations.js';
import type { CompiledAnswer, CompiledMatch } from './scenario-runtime.js';
import { MAX_RETRY_AFTER_S, ScenarioSpecError } from './scenario-problems.js';
import type { AnswerSpec } from './scenario-spec.js';

/** The first catalogue code of each status a scenario may force, when the file names none. */
const DEFAULT_FORCED_CODES: Readonly<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'invalid_api_key',
  404: 'pet_not_found',
  410: 'endpoint_removed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Codes of the admin API and of the mock's own sessions: no answer of the Animal Store API has them. */
const NOT_API_CODES: ReadonlySet<string> = new Set([
  'admin_invalid_request',
  'admin_unauthorized',
  'admin_host_forbidden',
  'scenario_invalid',
  'invalid_session',
  'too_many_connections',
  'snapshot_invalid',
  'snapshot_unsupported',
]);

/** A forced answer as the runtime plays it; a mistake only the matched operations show throws `ScenarioSpecError` at its place. */
export function compileAnswer(answer: AnswerSpec, match: CompiledMatch, where: (string | number)[]): CompiledAnswer {
  if (match.operations.size === 0) {
    throw new ScenarioSpecError(
      where.slice(0, -1),
      `this match fits no operation of the specification (${OPERATIONS.map((op) => `${op.method} ${op.path.replace(/\/1$/, '/{petId}')}`).join(', ')}); check operation, method and path`,
    );
  }
  if (answer === 'normal') return { kind: 'normal' };
  if ('fault' in answer) return { kind: 'fault', fault: answer.fault };
  const matched = OPERATIONS.filter((op) => match.operations.has(op.id));
  if ('body' in answer || answer.status < 300) return compileSuccess(answer, matched, where);
  for (const op of matched) {
    if (!op.statuses.includes(String(answer.status))) {
      throw new ScenarioSpecError(
        [...where, 'status'],
        `${op.id} never answers ${answer.status} (its documented statuses are ${op.statuses.join(', ')}); narrow the match or pick one of those`,
      );
    }
  }
  const code = answer.code ?? DEFAULT_FORCED_CODES[answer.status];
  const entry = code === undefined ? undefined : (ERROR_CATALOGUE as Record<string, { status: number } | undefined>)[code];
  if (code === undefined || !entry || entry.status !== answer.status || NOT_API_CODES.has(code)) {
    const fitting = Object.entries(ERROR_CATALOGUE)
      .filter(([c, v]) => v.status === answer.status && !NOT_API_CODES.has(c))
      .map(([c]) => c);
    const given =
      code === undefined
        ? `status ${answer.status} has no default code; name one with "code"`
        : `the code ${JSON.stringify(code)} is not one of the catalogue's codes for ${answer.status}`;
    throw new ScenarioSpecError([...where, 'code'], `${given}: ${fitting.join(', ')}`);
  }
  const compiled: Extract<CompiledAnswer, { kind: 'error' }> = { kind: 'error', status: answer.status, code: code as ErrorCode };
  if (answer.message !== undefined) compiled.message = answer.message;
  if (answer.retryAfter !== undefined && !(answer.retryAfter <= MAX_RETRY_AFTER_S)) {
    throw new ScenarioSpecError([...where, 'retryAfter'], `retryAfter is at most ${MAX_RETRY_AFTER_S} seconds (a day); give a shorter wait`);
  }
  if (answer.retryAfter !== undefined || answer.status === 429) compiled.retryAfter = answer.retryAfter ?? 1;
  return compiled;
}

/**
 * A forced success: its body must be what the matched operations answer with (the document's
 * schema, or no body where the document gives none), so a scenario can never make the mock answer
 * outside its contract. Where the document gives the success a `Location`, it names the body's id.
 */
function compileSuccess(answer: { status: number; body?: unknown }, matched: typeof OPERATIONS, where: (string | number)[]): CompiledAnswer {
  let location: string | undefined;
  for (const op of matched) {
    if (op.success.status !== answer.status) {
      throw new ScenarioSpecError(
        [...where, 'status'],
        `${op.id} answers success with ${op.success.status}, not ${answer.status}; narrow the match or use ${op.success.status}`,
      );
    }
    const schema = op.success.schema;
    if (schema === undefined) {
      if (answer.body === undefined) continue;
      throw new ScenarioSpecError([...where, 'body'], `${op.id} answers ${answer.status} without a body; leave the body out`);
    }
    const what = schema === 'Pets' ? 'a list of animals ({id, name, categoryId, status?})' : 'one animal ({id, name, categoryId, status?})';
    if (answer.body === undefined) throw new ScenarioSpecError(where, `${op.id} answers ${answer.status} with ${what}; give it as "body"`);
    location ??= op.success.location;
    const [problem] = schemaProblems(schema, answer.body);
    if (problem) {
      throw new ScenarioSpecError(
        [...where, 'body', ...problem.path],
        `the forced body is not what ${op.id} answers: ${problem.message}; ${op.id} answers ${what}`,
      );
    }
  }
  const compiled: CompiledAnswer = { kind: 'success', status: answer.status };
  if (answer.body === undefined) return compiled;
  compiled.body = JSON.stringify(answer.body);
  const id = (answer.body as { id?: unknown }).id;
  if (location !== undefined && typeof id === 'number') compiled.location = `${location}/${id}`;
  return compiled;
}
