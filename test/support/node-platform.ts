// Tests import core modules directly, without the library's entry point: install Node's platform
// services (the generated validators, zlib) for them as the entry point does. Installed again
// before every file: a worker runs many files in one module graph (vitest.config.ts), and the
// entry point's own install runs only when the module is first loaded.
import { installPlatform } from '../../src/core/platform.js';
import { nodePlatform } from '../../src/node-platform.js';

installPlatform(nodePlatform);
