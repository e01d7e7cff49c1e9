// A copy of the OpenAPI document module in which listPets is the deprecated operation and getPet
// is not, for tests that show the deprecation rules follow the document rather than a name
// (`vi.mock` of src/core/input/openapi.js, whose factory imports this).
import type * as OpenApi from '../../src/core/input/openapi.js';

export function listPetsDeprecated(real: typeof OpenApi): typeof OpenApi {
  const document = structuredClone(real.openapiDocument);
  const paths = document.paths as unknown as Record<string, Record<string, { deprecated?: boolean }>>;
  delete paths['/pets/{petId}']!.get!.deprecated;
  paths['/pets']!.get!.deprecated = true;
  return { ...real, openapiDocument: document };
}
