// The behaviours `--compare-mock` compares, each with the rule each side is held to: the
// specification's where it fixes the behaviour, else the mock's documented decision
// (docs/reference.md, "Behaviour where the specification is silent").

/** One behaviour in which the deployment and the mock answered the same request differently. */
export interface Difference {
  /** What differs: `status`, `error-code`, `header.x-ratelimit-remaining`, `retry-after`, `ban`, `list.order`, … */
  behaviour: string;
  /** The request as sent to both: `GET /v1/pets?limit=0`. */
  request: string;
  /** What the deployment did. */
  deployment: string;
  /** What the mock did. */
  mock: string;
  /** The two side by side, with the rule each follows. */
  message: string;
}

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

/** The rules a difference in `behaviour` sets against each other, in words. */
export function ruleOf(behaviour: string): string {
  const rule = RULES[behaviour] ?? RULES.status;
  const spec = rule?.spec === undefined ? 'the specification leaves it open' : `${rule.spec} holds for both`;
  return `the mock follows ${rule?.mock ?? REFERENCE}; ${spec}`;
}

/** A difference with its message: who did what, and the rules. */
export function difference(behaviour: string, request: string, deployment: string, mock: string): Difference {
  return { behaviour, request, deployment, mock, message: `${request}: the deployment ${deployment}, the mock ${mock}; ${ruleOf(behaviour)}` };
}
