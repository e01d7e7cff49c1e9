import type { RunningMock } from 'petstore-mock';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { petstoreMock?: RunningMock }).petstoreMock?.close();
}
