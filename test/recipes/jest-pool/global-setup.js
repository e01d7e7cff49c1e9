// Jest globalSetup: one mock for every worker. Workers are other processes: they find the mock
// by the environment variable and connect to it with connectMock.
const { startMock } = require('petstore-mock');

module.exports = async function globalSetup() {
  const mock = await startMock({ port: 0 });
  globalThis.petstoreMock = mock;
  process.env.PETSTORE_ORIGIN = mock.origin;
};
