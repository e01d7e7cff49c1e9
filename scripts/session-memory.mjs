// Worst-case memory of the session table, in-process on the built core: every one of the 1,000
// sessions a server keeps with a full journal (1,000 entries), animals created, and all 400 list
// shapes (limit 1..100, with and without a status) asked for. Bounded; stops by itself.
//
//   npm run build && node --expose-gc scripts/session-memory.mjs
import { createFetchHandler } from '../dist/index.js';

if (typeof global.gc !== 'function') {
  console.error('session-memory: run with node --expose-gc so the figures are after collection.');
  process.exit(1);
}
const SESSIONS = 1_000;
const heap = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};
const { engine } = createFetchHandler({ keys: ['mem:enterprise:1000000000:1000000000'] });
const auth = { authorization: 'Bearer mem', 'content-type': 'application/json' };
const body = new TextEncoder().encode('{"name":"Mem","categoryId":1,"status":"sold"}');
const before = heap();
const started = Date.now();
for (let s = 0; s < SESSIONS; s++) {
  const headers = { ...auth, 'x-mock-session': `mem-${s}` };
  for (let i = 0; i < 200; i++) engine.handle({ method: 'POST', path: '/v1/pets', query: '', headers, body });
  for (const status of ['', 'status=available&', 'status=pending&', 'status=sold&']) {
    for (let limit = 1; limit <= 100; limit++) engine.handle({ method: 'GET', path: '/v1/pets', query: `${status}limit=${limit}`, headers });
  }
  // The longest paths the journal keeps, so each entry is as large as an entry can be.
  for (let i = 0; i < 400; i++) engine.handle({ method: 'GET', path: `/v1/${'p'.repeat(8_000)}`, query: 'q'.repeat(8_000), headers });
}
const after = heap();
const worlds = engine.sessions.all();
const mib = (n) => (n / 1024 / 1024).toFixed(1);
console.log(
  `session-memory: ${worlds.length - 1} sessions, each with ${worlds[1].journal.size} journal entries and ${worlds[1].store.size} animals, ` +
    `after ${SESSIONS * 1_000} requests in ${((Date.now() - started) / 1000).toFixed(1)} s: heap ${mib(before)} -> ${mib(after)} MiB ` +
    `(+${mib(after - before)} MiB, ${((after - before) / (worlds.length - 1) / 1024).toFixed(0)} KiB a session); ` +
    `counted against the shared bounds: journals ${mib(engine.sessions.budgets.journal.used)} of ${mib(engine.sessions.budgets.journal.limit)} MiB, ` +
    `created animals ${mib(engine.sessions.budgets.created.used)} of ${mib(engine.sessions.budgets.created.limit)} MiB, list bodies ${mib(engine.sessions.budgets.listBodies.used)} of ${mib(engine.sessions.budgets.listBodies.limit)} MiB.`,
);
