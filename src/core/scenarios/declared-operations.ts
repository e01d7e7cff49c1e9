// Operations a scenario declares beside the specification's (`operations:` in a scenario): the
// store orders it mentions without defining, a DELETE it leaves unshown. Each answers from a list
// in order, the last one repeating; where a session is in each list is its only state.
import { openapiDocument } from '../input/openapi.js';

/** The specification's operationIds, which no declared operation may take. */
const SPEC_IDS: ReadonlySet<string> = new Set(Object.values(openapiDocument.paths).flatMap((item) => Object.values(item).map((op) => op.operationId)));

/** A declared operation's answers as a scenario writes them. */
export interface DeclaredOperationSpec {
  operationId: string;
  method: string;
  path: string;
  answers: { status: number; body?: unknown; headers?: Record<string, string>; times?: number }[];
}

/** One answer of a declared operation, ready to send. */
export interface DeclaredAnswer {
  status: number;
  /** The body as JSON text; absent for an answer without one. */
  body?: string;
  headers?: Readonly<Record<string, string>>;
  /** How many calls this answer takes before the next one; the last answer repeats forever. */
  times: number;
}

/** A compiled declared operation: method, path template under /v1 and its answers. */
export interface DeclaredOperation {
  operationId: string;
  method: string;
  /** `/v1/store/orders/{orderId}`: literal segments and `{name}` parameters. */
  path: string;
  answers: readonly DeclaredAnswer[];
}

/** The place of a mistake in the scenario, and what to say about it (turned into ScenarioSpecError). */
export type Complaint = (path: readonly (string | number)[], message: string) => Error;

/** Statuses whose answers carry no body by HTTP's rules. */
const NO_BODY = new Set([204, 205, 304]);

/** Headers the mock writes itself on every answer: a declared answer cannot override them. */
const RESERVED = /^(date|content-length|transfer-encoding|connection|x-ratelimit-.*|access-control-.*|x-mock-session.*)$/i;

/** RFC 9110's token: what a field name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A field value: visible Latin-1 characters, spaces and tabs, none at either end (RFC 9110, 5.5). */
const FIELD_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/**
 * Hop-by-hop and framing fields: they describe the connection or how the body is delimited, which
 * the mock decides itself for every answer; declared, they would break the framing or the server.
 */
const HOP_BY_HOP = /^(connection|keep-alive|transfer-encoding|content-length|content-encoding|trailer|te|upgrade|host|http2-settings|proxy-.*)$/i;

/** Names of JavaScript's object members, refused so that no header can look like one anywhere it travels. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype'].map((n) => n.toLowerCase()));

/**
 * Why a declared header cannot be sent as HTTP allows, or undefined when it can: its name must
 * be a token and not a hop-by-hop, framing or object member name, its value a field value.
 */
export function headerRefusal(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return `${JSON.stringify(name)} is not a header name HTTP allows (letters, digits and !#$%&'*+.^_\`|~-); rename it`;
  if (HOP_BY_HOP.test(name)) {
    return `${name} describes the connection or the body's framing, which the mock decides itself (Connection, Keep-Alive, Transfer-Encoding, Content-Length, Content-Encoding, Trailer, TE, Upgrade, Host, Proxy-*); remove it`;
  }
  if (OBJECT_MEMBERS.has(name.toLowerCase())) return `${name} is a name the mock does not take as a header (it names a JavaScript object member); rename it`;
  if (typeof value !== 'string' || !FIELD_VALUE.test(value)) {
    return `the value of ${name} is not a header value HTTP allows: only visible Latin-1 characters, spaces and tabs inside (no line breaks, NUL, control characters or characters past U+00FF such as emoji or ✓), none at either end; change it`;
  }
  return undefined;
}

/** Names the mock writes in its own case, so a declared `content-type` replaces rather than doubles it. */
const CANONICAL: Readonly<Record<string, string>> = { 'content-type': 'Content-Type', location: 'Location', 'retry-after': 'Retry-After' };

/**
 * Checks and compiles a scenario's declared operations. `specified` tells whether the
 * specification (or the mock's own document route) already answers a method at a path template;
 * such a declaration is refused, as is one the same scenario makes twice.
 */
export function compileDeclared(
  specs: readonly DeclaredOperationSpec[],
  specified: (method: string, path: string) => string | undefined,
  complain: Complaint,
): DeclaredOperation[] {
  const seenIds = new Set<string>();
  const seenRoutes = new Map<string, number>();
  return specs.map((spec, i) => {
    const where = ['operations', i];
    if (spec.method === 'HEAD' || spec.method === 'OPTIONS') {
      throw complain(
        [...where, 'method'],
        `${spec.method} is answered by the mock itself (HEAD as GET without a body, OPTIONS with Allow and CORS); declare the GET or another method instead`,
      );
    }
    const owner = specified(spec.method, spec.path);
    if (owner !== undefined) {
      throw complain(
        [...where, 'path'],
        `${spec.method} ${spec.path} is already ${owner}; a scenario declares only operations the specification does not define (a scenario's steps change their answers)`,
      );
    }
    if (seenIds.has(spec.operationId) || SPEC_IDS.has(spec.operationId)) {
      throw complain([...where, 'operationId'], `the operationId ${JSON.stringify(spec.operationId)} is taken already; give each operation its own`);
    }
    seenIds.add(spec.operationId);
    const route = `${spec.method} ${templateKey(spec.path)}`;
    const earlier = seenRoutes.get(route);
    if (earlier !== undefined) {
      throw complain([...where, 'path'], `operation ${earlier} declares ${spec.method} at this path already; keep one of the two`);
    }
    seenRoutes.set(route, i);
    const answers = spec.answers.map((answer, j) => compileAnswer(answer, [...where, 'answers', j], complain));
    return { operationId: spec.operationId, method: spec.method, path: spec.path, answers };
  });
}

function compileAnswer(answer: DeclaredOperationSpec['answers'][number], where: (string | number)[], complain: Complaint): DeclaredAnswer {
  const out: DeclaredAnswer = { status: answer.status, times: answer.times ?? 1 };
  if (answer.body !== undefined) {
    if (NO_BODY.has(answer.status)) throw complain([...where, 'body'], `a ${answer.status} answer has no body in HTTP; remove the body or pick another status`);
    out.body = JSON.stringify(answer.body);
  }
  if (answer.headers !== undefined) {
    // Without a prototype: no name a scenario gives can reach Object.prototype's members.
    const headers = Object.create(null) as Record<string, string>;
    for (const [name, value] of Object.entries(answer.headers)) {
      const refusal = headerRefusal(name, value);
      if (refusal !== undefined) throw complain([...where, 'headers', name], refusal);
      if (RESERVED.test(name)) {
        throw complain(
          [...where, 'headers', name],
          `${name} is written by the mock itself on every answer (date, length, rate limits, CORS, session); remove it`,
        );
      }
      headers[CANONICAL[name.toLowerCase()] ?? name] = value;
    }
    out.headers = headers;
  }
  return out;
}

/** A path template with its parameters' names left out: `/v1/pets/{}` for `/v1/pets/{id}` and `/v1/pets/{petId}` alike. */
export function templateKey(path: string): string {
  return path.replace(/\{[^}/]*\}/g, '{}');
}

/** Which answer the call numbered `call` (from 0) gets: each answer `times` calls in turn, the last forever. */
export function answerIndex(op: DeclaredOperation, call: number): number {
  let left = call;
  const last = op.answers.length - 1;
  for (let i = 0; i < last; i++) {
    const times = op.answers[i]?.times ?? 1;
    if (left < times) return i;
    left -= times;
  }
  return last;
}
