/** When the deprecated `GET /pets/{petId}` goes away: 5 December 2030, 00:00 UTC (the specification). */
export const DEFAULT_REMOVAL_AT = Date.UTC(2030, 11, 5);
/**
 * When it counts as deprecated. The specification says only that it is deprecated; the mock
 * announces five years before removal, a date already past, so the header says "deprecated now".
 */
export const DEFAULT_DEPRECATED_AT = Date.UTC(2025, 11, 5);

/** The instants a session's deprecated endpoint obeys. */
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
