/** The operationIds of the OpenAPI document (src/core/input/openapi.ts), in its order. */
export function documentOperationIds(source?: string): string[];
/** The registries' texts by path (from the project's root) for these operationIds. */
export function registryTexts(ids: readonly string[]): Record<string, string>;
/** Writes the operations' registries of both homes from the document; answers the ids. */
export function writeOperationRegistries(): string[];
