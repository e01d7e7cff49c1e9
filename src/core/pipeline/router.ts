import { SPEC_TABLE, type OperationsTable } from './operations-table.js';

import type { Route } from './operations-table.js';

export type { Route };

/**
 * Routes strictly and case-sensitively in a table (operations-table.ts; the specification's by
 * default): `/V1/PETS` and `/v1/pets/` are not the API. Paths are matched still encoded, so `%2F`
 * inside an id never becomes a path separator.
 */
export function route(method: string, path: string, table: OperationsTable = SPEC_TABLE): Route {
  return table.route(method, path);
}
