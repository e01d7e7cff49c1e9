import { faker as english } from '@faker-js/faker/locale/en';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { shippedScenarioObjects } from './scripts/shipped-scenarios.mjs';
import { writeOperationRegistries } from './scripts/operation-registry.mjs';

// The operations' registries come from the OpenAPI document, as in the build: a test run after
// a new operation module was added sees it without a build first.
writeOperationRegistries();

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/**
 * The longest files (the container image, Redis topologies, an npm install from a clone) start
 * first: on a fresh machine there are no recorded durations, and one of them started last would
 * leave the other worker idle for its whole length.
 */
const LONGEST_FIRST = ['container/container', 'redis/differential', 'e2e/source-install', 'clients/real-clients', 'redis/partition'];

/** `npm run test:install` runs the installs from git (minutes each), which `npm test` leaves out. */
const INSTALLS = process.env.npm_lifecycle_event === 'test:install';

const INCLUDE = INSTALLS ? ['test/install/**/*.test.ts'] : ['test/**/*.test.ts'];
const EXCLUDE = INSTALLS ? configDefaults.exclude : [...configDefaults.exclude, 'test/install/**'];
/**
 * Files that change what every later file of their worker would see, each run in a fresh worker:
 * those that replace a module with `vi.mock`, and those that import the browser entry, which
 * installs the browser's platform (no decompression) for the whole process.
 */
const ISOLATED = [
  'test/core/deprecation-follows-document.test.ts',
  'test/core/forced-success.test.ts',
  'test/redis/deprecation-follows-document.test.ts',
  'test/browser/browser-declared.test.ts',
  'test/browser/browser-entry.test.ts',
  'test/browser/browser-usage.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONGEST_FIRST.findIndex((name) => file.moduleId.includes(`/test/${name}.test.ts`));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  // As in scripts/build.mjs: the seeded animals' names, read from Faker's English locale, the
  // shipped scenarios the browser build has in place of files, and the version.
  define: {
    __PETSTORE_VERSION__: JSON.stringify(version),
    __PETSTORE_PET_NAMES__: JSON.stringify(english.rawDefinitions.animal?.pet_name),
    __PETSTORE_SHIPPED_SCENARIOS__: JSON.stringify(shippedScenarioObjects()),
  },
  test: {
    setupFiles: ['test/support/node-platform.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most long tests wait on other processes (npm installs, servers, Redis, a browser, podman), so
    // more workers than cores: with two on two cores the source install alone held one worker for
    // three minutes and the suite took ten.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    sequence: { sequencer: LongestFirst },
    // A worker runs file after file in one module graph (no fresh import of the sources per file):
    // that halved the suite's CPU for the core and HTTP tests. The ISOLATED files run in fresh
    // workers of their own, as what they change would leak into the next file.
    projects: [
      { extends: true, test: { name: 'shared', isolate: false, include: INCLUDE, exclude: [...EXCLUDE, ...ISOLATED] } },
      { extends: true, test: { name: 'isolated', isolate: true, include: ISOLATED.filter(() => !INSTALLS), exclude: EXCLUDE } },
    ],
  },
});
