// Each test file takes a session of its own on the shared mock: its own store, counters, clock.
import { randomUUID } from 'node:crypto';
import { connectMock } from 'petstore-mock';
import { inject } from 'vitest';

export async function ownSession() {
  const mock = await connectMock(inject('petstoreOrigin'));
  const id = `worker-${randomUUID()}`;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${mock.url}${path}`, {
      ...init,
      headers: { Authorization: 'Bearer demo-free', 'Content-Type': 'application/json', 'X-Mock-Session': id, ...init.headers },
    });
  return { session: mock.session(id), api };
}
