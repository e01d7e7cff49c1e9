// The validators scripts/browser-validators.mjs generates at build time as plain code (Ajv's
// standalone output): the build and the test config resolve these module names to it. Node uses
// the OpenAPI ones too; its scenario and snapshot checks are a generated CommonJS file
// (src/files/object-validators.ts).

declare module 'virtual:petstore-mock/openapi-validators' {
  import type { ValidateFunction } from 'ajv';
  /** The OpenAPI document's NewPet schema: request bodies. */
  export const newPet: ValidateFunction;
  /** The Pet schema: forced answers of scenarios. */
  export const pet: ValidateFunction;
  /** The Pets schema: forced answers of scenarios. */
  export const pets: ValidateFunction;
}

declare module 'virtual:petstore-mock/scenario-validator' {
  import type { ValidateFunction } from 'ajv';
  /** scenarios/scenario.schema.json, with the options the scenario files are checked with (all errors, verbose). */
  export const validateScenario: ValidateFunction;
}
