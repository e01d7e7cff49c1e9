// Jest globalSetup: one mock for the whole run. Jest ignores what globalSetup returns (unlike
// vitest), so the mock is kept on globalThis, which only globalTeardown shares, and closed there.
// Test files run in other processes: they get the URL through an environment variable.
import { startMock, type RunningMock } from 'petstore-mock';

export default async function globalSetup(): Promise<void> {
  const mock = await startMock({ port: 0 });
  (globalThis as { petstoreMock?: RunningMock }).petstoreMock = mock;
  process.env.PETSTORE_URL = mock.url;
}
