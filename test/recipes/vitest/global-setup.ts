// vitest globalSetup: one mock for the whole run; tests read its URL with inject('petstoreUrl').
import { startMock } from 'petstore-mock';
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject) {
  const mock = await startMock({ port: 0 });
  project.provide('petstoreUrl', mock.url);
  return () => mock.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    petstoreUrl: string;
  }
}
