import { faker as english } from '@faker-js/faker/locale/en';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As in scripts/build.mjs: the seeded animals' names, read from Faker's English locale.
  define: { __PETSTORE_PET_NAMES__: JSON.stringify(english.rawDefinitions.animal?.pet_name) },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/node-platform.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
