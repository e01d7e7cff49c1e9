/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
};
