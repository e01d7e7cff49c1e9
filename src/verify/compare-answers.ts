// The comparison of two answers to the same request, one behaviour at a time, with the tolerance
// rules of docs/verify.md: instants (X-RateLimit-Reset, Retry-After, a ban's end) agree within a
// second, since a Date header is whole seconds and both sides round up; counts agree exactly.
// Each behaviour names the rule each side is held to: the specification's where it fixes the
// behaviour, else the mock's documented decision (docs/reference.md, "Behaviour where the
// specification is silent").
import { jsonOf, type Logged, type Seen } from './client.js';
import { requestLine } from './rule.js';
import type { Difference } from './types.js';

const REFERENCE = 'docs/reference.md';

/** The rule of each behaviour: where the specification says it, and what the mock decided. */
const RULES: Readonly<Record<string, { spec?: string; mock: string }>> = {
  status: { mock: `the order of checks and each operation's answers (${REFERENCE}, "Order of checks", "Validation")` },
  'error-code': { mock: `the error catalogue (${REFERENCE}, "Errors"); the specification lists no codes ("not shown")` },
  'header.x-ratelimit-limit': {
    spec: 'the specification, Request rate, rule 1 (every response carries X-RateLimit-Limit, -Remaining and -Reset)',
    mock: `the window with the fewest requests left (${REFERENCE}, "Rate limits")`,
  },
  'header.x-ratelimit-remaining': {
    spec: 'the specification, Request rate, rule 1',
    mock: `a request counts once checked against every window, a 429 consumes nothing (${REFERENCE}, "Rate limits")`,
  },
  'header.x-ratelimit-reset': {
    spec: 'the specification, Request rate, rule 2 (X-RateLimit-Reset is a Unix timestamp)',
    mock: `whole Unix seconds at the window's end, windows aligned to the clock (${REFERENCE}, "Rate limits")`,
  },
  'retry-after': {
    spec: 'the specification, Request rate, rule 4 (wait the time given in Retry-After)',
    mock: `Retry-After is whole seconds ≥ 1 until the reset of the window that refused (${REFERENCE}, "Rate limits")`,
  },
  ban: {
    spec: 'the specification, Request rate, rule 5 (sending on after a 429 may cause a temporary ban)',
    mock: `a ban only for sending while a 429's wait runs, key_banned until its end (${REFERENCE}, "Temporary bans")`,
  },
  'header.deprecation': {
    spec: 'the specification, Versioning, rule 3 (GET /pets/{petId} is deprecated)',
    mock: `Deprecation: @1764892800 on every answer of GET /v1/pets/{petId} (${REFERENCE}, "Deprecated GET /v1/pets/{petId}")`,
  },
  'header.sunset': {
    spec: 'the specification, Versioning, rule 3 (removal on 5 December 2030)',
    mock: `Sunset: Thu, 05 Dec 2030 00:00:00 GMT (${REFERENCE}, "Deprecated GET /v1/pets/{petId}")`,
  },
  'header.link': { mock: `a Link to the successor </v1/pets>; rel="successor-version" (${REFERENCE}, "Deprecated GET /v1/pets/{petId}")` },
  'header.www-authenticate': { mock: `every 401 carries WWW-Authenticate: Bearer realm="petstore" (${REFERENCE}, "Auth")` },
  'header.retry-after': { spec: 'the specification, Request rate, rule 4', mock: `every 429 carries Retry-After (${REFERENCE}, "Rate limits")` },
  'list.limit': {
    spec: 'the specification, Limits, Page size (limit 1 to 100, default 20)',
    mock: `the status filter, then limit (${REFERENCE}, "Lists", "Validation")`,
  },
  'list.order': { mock: `lists in ascending id order (${REFERENCE}, "Lists")` },
  'list.content': { mock: `the status filter, then limit, over the animals stored (${REFERENCE}, "Lists")` },
  'create.echo': {
    spec: 'the specification, createPet (201 with the animal created)',
    mock: `the animal as sent, with an id the mock assigns (${REFERENCE}, "Lists", "Validation")`,
  },
};

/** A difference with its message: who did what, and the rules each side is held to. */
function difference(behaviour: string, request: string, deployment: string, mock: string): Difference {
  const rule = RULES[behaviour] ?? RULES.status;
  const spec = rule?.spec === undefined ? 'the specification leaves it open' : `${rule.spec} holds for both`;
  return {
    behaviour,
    request,
    deployment,
    mock,
    message: `${request}: the deployment ${deployment}, the mock ${mock}; the mock follows ${rule?.mock ?? REFERENCE}; ${spec}`,
  };
}

/** One side's answer as the comparison reads it. */
export interface Side {
  status: number;
  headers: Record<string, string>;
  seen: Seen;
}

/** Seconds two instants may differ by and still be the same one. */
const TOLERANCE_S = 1;

/** Behaviours that drift on once they differ (a count, an instant): reported at their first request only. */
const ONCE = new Set(['header.x-ratelimit-limit', 'header.x-ratelimit-remaining', 'header.x-ratelimit-reset', 'retry-after', 'ban']);

const said = (side: Side): string => `${side.status}${side.seen.code === undefined ? '' : ` ${side.seen.code}`}`;

/** Retry-After in seconds from the answer's Date (whole seconds, or an HTTP-date). */
function retryAfterSeconds(side: Side): number | undefined {
  const value = side.headers['retry-after']?.trim();
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  const date = Date.parse(side.headers.date ?? '');
  return Number.isFinite(at) && Number.isFinite(date) ? Math.round((at - date) / 1000) : undefined;
}

/** Seconds from the answer's Date to its X-RateLimit-Reset, for messages. */
function resetIn(side: Side): string {
  const reset = Number(side.headers['x-ratelimit-reset']);
  const date = Date.parse(side.headers.date ?? '');
  return Number.isFinite(reset) && Number.isFinite(date) ? ` (X-RateLimit-Reset is Date + ${reset - Math.floor(date / 1000)} s)` : '';
}

/** A Link header as compared: each target's path and rel. */
function linkShape(value: string): string {
  return value
    .split(',')
    .map((part) => {
      const target = /<([^>]*)>/.exec(part)?.[1] ?? '';
      const rel = /rel="?([^";]+)"?/.exec(part)?.[1] ?? '';
      let path = target;
      try {
        path = new URL(target, 'http://x').pathname;
      } catch {
        // kept as written
      }
      return `${path} rel=${rel}`;
    })
    .sort()
    .join(', ');
}

/** WWW-Authenticate as compared: the scheme and whether it says `error="invalid_token"`. */
function challengeShape(value: string): string {
  const scheme = value.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const error = /error="?([^",]+)"?/i.exec(value)?.[1];
  return error === undefined ? scheme : `${scheme} error=${error}`;
}

const header = (name: string, side: Side): string => {
  const value = side.headers[name];
  return value === undefined ? `sent no ${name}` : `sent ${name}: ${value}`;
};

/** What an answer's animal says of each field sent, where it differs from the request. */
function echoProblems(body: string | undefined, pet: Seen['pet']): string[] {
  const sent = (jsonOf(body ?? '') ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of ['name', 'categoryId', 'status'] as const) {
    if (field in sent && JSON.stringify(sent[field]) !== JSON.stringify(pet?.[field])) problems.push(`${field} ${JSON.stringify(pet?.[field]) ?? 'missing'}`);
  }
  return problems;
}

function compareOne(logged: Logged, d: Side, m: Side, firstCode: string | undefined): Difference[] {
  const request = requestLine(logged);
  const out: Difference[] = [];
  const dBan = d.status === 429 && (/ban/i.test(d.seen.code ?? '') || (firstCode !== undefined && d.seen.code !== firstCode));
  const mBan = m.status === 429 && m.seen.code === 'key_banned';
  if (dBan !== mBan)
    return [
      difference(
        'ban',
        request,
        `${dBan ? 'banned the key' : 'did not ban the key'} (answered ${said(d)})`,
        `${mBan ? 'banned it' : 'did not ban it'} (answered ${said(m)})`,
      ),
    ];
  if (dBan) {
    const [dr, mr] = [retryAfterSeconds(d), retryAfterSeconds(m)];
    if (dr === undefined || mr === undefined || Math.abs(dr - mr) > TOLERANCE_S)
      out.push(difference('ban', request, `ends the ban after Retry-After: ${dr ?? 'none'}`, `ends it after Retry-After: ${mr ?? 'none'}`));
    return out;
  }
  if (d.status !== m.status) return [difference('status', request, `answered ${said(d)}`, `answered ${said(m)}`)];
  if (d.status >= 400 && d.seen.code !== m.seen.code)
    out.push(difference('error-code', request, `answered code ${d.seen.code ?? '(none)'}`, `answered code ${m.seen.code ?? '(none)'}`));
  /** A difference when one side sent header `name` and the other did not, or when `same` finds the two values apart. */
  const compareHeader = (name: string, same: (dv: string, mv: string) => boolean): void => {
    const [dv, mv] = [d.headers[name], m.headers[name]];
    if (dv === undefined || mv === undefined ? dv !== mv : !same(dv, mv)) out.push(difference(`header.${name}`, request, header(name, d), header(name, m)));
  };
  const trimmedEqual = (dv: string, mv: string): boolean => dv.trim() === mv.trim();
  // The counts' values are compared on requests with the key only.
  const keyed = logged.request.auth === 'key';
  compareHeader('x-ratelimit-limit', (dv, mv) => !keyed || trimmedEqual(dv, mv));
  compareHeader('x-ratelimit-remaining', (dv, mv) => !keyed || trimmedEqual(dv, mv));
  compareHeader('x-ratelimit-reset', (dv, mv) => !keyed || !(Math.abs(Number(dv) - Number(mv)) > TOLERANCE_S));
  if (d.status === 429) {
    const [dr, mr] = [retryAfterSeconds(d), retryAfterSeconds(m)];
    if ((d.headers['retry-after'] === undefined) !== (m.headers['retry-after'] === undefined))
      out.push(difference('header.retry-after', request, header('retry-after', d), header('retry-after', m)));
    else if (dr === undefined || mr === undefined || Math.abs(dr - mr) > TOLERANCE_S)
      out.push(
        difference(
          'retry-after',
          request,
          `sent Retry-After: ${d.headers['retry-after'] ?? ''}${resetIn(d)}`,
          `sent Retry-After: ${m.headers['retry-after'] ?? ''}${resetIn(m)}`,
        ),
      );
  }
  compareHeader('deprecation', trimmedEqual);
  compareHeader('sunset', trimmedEqual);
  compareHeader('link', (dv, mv) => linkShape(dv) === linkShape(mv));
  if (d.status === 401) compareHeader('www-authenticate', (dv, mv) => challengeShape(dv) === challengeShape(mv));
  const [dIds, mIds] = [d.seen.ids, m.seen.ids];
  if (d.status === 200 && dIds && mIds) {
    const sorted = (ids: string[]): string => [...ids].sort().join(',');
    if (dIds.length !== mIds.length) out.push(difference('list.limit', request, `listed ${dIds.length} animals`, `listed ${mIds.length}`));
    else if (sorted(dIds) === sorted(mIds) && dIds.join(',') !== mIds.join(','))
      out.push(difference('list.order', request, `listed ids ${dIds.slice(0, 5).join(', ')}…`, `listed ${mIds.slice(0, 5).join(', ')}…`));
    else if (sorted(dIds) !== sorted(mIds))
      out.push(difference('list.content', request, `listed other animals (${dIds.slice(0, 5).join(', ')}…)`, `listed ${mIds.slice(0, 5).join(', ')}…`));
  }
  if (d.status === 201) {
    const [dp, mp] = [echoProblems(logged.request.body, d.seen.pet), echoProblems(logged.request.body, m.seen.pet)];
    if (dp.join() !== mp.join())
      out.push(
        difference(
          'create.echo',
          request,
          dp.length === 0 ? 'echoed the animal as sent' : `echoed ${dp.join(', ')}`,
          mp.length === 0 ? 'echoed it as sent' : `echoed ${mp.join(', ')}`,
        ),
      );
  }
  return out;
}

/**
 * Every difference between the deployment's answers and the mock's to the same requests. A
 * behaviour that drifts on once it differs (a count, an instant) is reported at its first request;
 * others once per request, so one deviation is one difference.
 */
export function compareAnswers(pairs: readonly { logged: Logged; mock: Side }[]): Difference[] {
  const firstCode = pairs.find((p) => p.logged.exchange.response?.status === 429)?.logged.seen.code;
  const found = new Map<string, Difference>();
  for (const { logged, mock } of pairs) {
    const response = logged.exchange.response;
    if (!response) continue;
    for (const diff of compareOne(logged, { status: response.status, headers: response.headers, seen: logged.seen }, mock, firstCode)) {
      const id = ONCE.has(diff.behaviour) ? diff.behaviour : `${diff.behaviour} ${diff.request}`;
      if (!found.has(id)) found.set(id, diff);
    }
  }
  return [...found.values()];
}
