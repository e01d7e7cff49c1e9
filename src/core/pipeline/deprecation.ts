// What the OpenAPI document marks deprecated is read from the operations table, never named here: a
// session's one pair of dates applies to every operation the document marks.
import { SPEC_OPERATIONS, type Route, type SpecOperation } from './operations-table.js';
import type { OperationId } from '../types.js';

/** When the deprecated operations (the specification's `GET /pets/{petId}`) go away: 5 December 2030, 00:00 UTC (the specification). */
export const DEFAULT_REMOVAL_AT = Date.UTC(2030, 11, 5);
/**
 * When it counts as deprecated. The specification says only that it is deprecated; the mock
 * announces five years before removal, a date already past, so the header says "deprecated now".
 */
export const DEFAULT_DEPRECATED_AT = Date.UTC(2025, 11, 5);

/** The instants a session's deprecated operations obey, all of them alike. */
export interface DeprecationDates {
  deprecatedAt: number;
  removalAt: number;
}

/** The RFC 9745 `Deprecation`, RFC 8594 `Sunset` and successor `Link` headers. */
export function deprecationHeaders(dates: DeprecationDates): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(dates.deprecatedAt / 1000)}`,
    Sunset: new Date(dates.removalAt).toUTCString(),
    Link: '</v1/pets>; rel="successor-version"; title="GET /v1/pets with the status filter", </v1/openapi.json>; rel="deprecation"; type="application/json"',
  };
}

/** The deprecated operations of a list of the specification's operations, by id. */
export function deprecatedById(operations: readonly SpecOperation[]): ReadonlyMap<OperationId, SpecOperation> {
  return new Map(operations.filter((op) => op.deprecated).map((op) => [op.id, op]));
}

const DEPRECATED = deprecatedById(SPEC_OPERATIONS);

/** The operation of the specification a route lands on when the document marks it deprecated; else undefined. */
export function deprecatedOperation(where: Route | undefined): SpecOperation | undefined {
  return where?.kind === 'operation' ? DEPRECATED.get(where.operation) : undefined;
}
