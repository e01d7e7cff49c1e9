import { faker as english } from '@faker-js/faker/locale/en';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  // As in scripts/build.mjs: the seeded animals' names, read from Faker's English locale, and the version.
  define: { __PETSTORE_PET_NAMES__: JSON.stringify(english.rawDefinitions.animal?.pet_name), __PETSTORE_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/node-platform.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
