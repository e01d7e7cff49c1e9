// The validators scripts/browser-validators.mjs generates at build time as plain code (Ajv's
// standalone output): the build and the test config resolve these module names to it. Node uses
// them too. The scenario and snapshot schemas are read as data (src/core/input/schema-check.ts).

declare module 'virtual:petstore-mock/openapi-validators' {
  import type { ValidateFunction } from 'ajv';
  /** The OpenAPI document's NewPet schema: request bodies. */
  export const newPet: ValidateFunction;
  /** The Pet schema: forced answers of scenarios. */
  export const pet: ValidateFunction;
  /** The Pets schema: forced answers of scenarios. */
  export const pets: ValidateFunction;
}
