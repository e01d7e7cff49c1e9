import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./global-setup.ts'],
    // Test files run in parallel workers, all against the one mock of globalSetup.
    pool: 'forks',
  },
});
