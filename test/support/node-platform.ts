// Tests import core modules directly, without the library's entry point: install Node's platform
// services (the generated validators, zlib) for them as the entry point does.
import '../../src/node-platform.js';
