// Each test file takes a session of its own on the shared mock: its own store, counters, clock.
const { randomUUID } = require('node:crypto');
const { connectMock } = require('petstore-mock');

exports.ownSession = async function ownSession() {
  const mock = await connectMock(process.env.PETSTORE_ORIGIN);
  const id = `worker-${process.env.JEST_WORKER_ID}-${randomUUID()}`;
  const api = (path, init = {}) =>
    fetch(`${mock.url}${path}`, {
      ...init,
      headers: { Authorization: 'Bearer demo-free', 'Content-Type': 'application/json', 'X-Mock-Session': id, ...init.headers },
    });
  return { session: mock.session(id), api };
};
