/** @type {import('jest').Config} */
module.exports = {
  globalSetup: './global-setup.js',
  globalTeardown: './global-teardown.js',
  // Test files run in parallel workers, all against the one mock of globalSetup.
  maxWorkers: 2,
};
