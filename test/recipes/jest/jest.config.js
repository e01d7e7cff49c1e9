/** @type {import('jest').Config} */
module.exports = {
  globalSetup: './global-setup.js',
  globalTeardown: './global-teardown.js',
};
