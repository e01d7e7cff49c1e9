// vitest globalSetup: one mock for every worker; each worker connects to it with connectMock.
import { startMock } from 'petstore-mock';
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject) {
  const mock = await startMock({ port: 0 });
  project.provide('petstoreOrigin', mock.origin);
  return () => mock.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    petstoreOrigin: string;
  }
}
