// Every admin call selects its session the one way (X-Mock-Session or ?session=), and calls about
// the whole mock refuse a session: one table of routes, run against each home of state.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';
import { adminCall, type AdminInit, type AdminReply, type ClockJson, type ErrorJson } from './admin.js';

/** What a test sees of a session, read without naming it twice: clock, scenario, journal. */
interface Seen {
  now: string;
  scenario: string;
  details: boolean;
  entries: number;
}

type Via = 'header' | 'query';

/** One admin route and what its answer (a read) or the session afterwards (a change) must show of the named session. */
interface RouteCase {
  route: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: (origin: string) => Promise<unknown> | unknown;
  /** A read's answer shows the named session's state. */
  answer?: (json: any, id: string) => void;
  /** A change shows on the named session. */
  changed?: (seen: Seen) => void;
}

const NAMED_AT = '2030-01-01T00:00:00.000Z';
const DEFAULT_AT = '2026-03-10T12:00:00.000Z';

const ROUTES: RouteCase[] = [
  { route: 'GET health', method: 'GET', path: 'health', answer: (j) => expect(j.scenario).toBe('empty-store') },
  { route: 'GET clock', method: 'GET', path: 'clock', answer: (j: ClockJson) => expect(j.now).toBe(NAMED_AT) },
  { route: 'GET scenario', method: 'GET', path: 'scenario', answer: (j) => expect(j.name).toBe('empty-store') },
  { route: 'GET requests', method: 'GET', path: 'requests', answer: (j, id) => expect(j.map((e: { session: string }) => e.session)).toEqual([id]) },
  { route: 'GET requests?format=har', method: 'GET', path: 'requests?format=har', answer: (j) => expect(j.log.entries).toHaveLength(1) },
  { route: 'GET requests/count', method: 'GET', path: 'requests/count', answer: (j, id) => expect(j).toMatchObject({ count: 1, session: id }) },
  { route: 'GET journal', method: 'GET', path: 'journal', answer: (j, id) => expect(j).toMatchObject({ session: id, entries: 1 }) },
  { route: 'GET audit', method: 'GET', path: 'audit', answer: (j) => expect(j.judged.requests).toBe(1) },
  {
    route: 'GET keys',
    method: 'GET',
    path: 'keys',
    answer: (j) => expect(j.find((k: { key: string }) => k.key === 'demo-free')).toMatchObject({ remaining: 59 }),
  },
  { route: 'GET snapshot', method: 'GET', path: 'snapshot', answer: (j: SnapshotDocument, id) => expect(j.session).toBe(id) },
  { route: 'POST reset', method: 'POST', path: 'reset', changed: (s) => expect(s).toMatchObject({ scenario: 'empty-store', entries: 0 }) },
  {
    route: 'POST clock',
    method: 'POST',
    path: 'clock',
    body: () => ({ set: '2031-05-05T00:00:00Z' }),
    changed: (s) => expect(s.now).toBe('2031-05-05T00:00:00.000Z'),
  },
  { route: 'PUT scenario (name)', method: 'PUT', path: 'scenario', body: () => ({ name: 'slow' }), changed: (s) => expect(s.scenario).toBe('slow') },
  {
    route: 'PUT scenario (object)',
    method: 'PUT',
    path: 'scenario',
    body: () => ({ scenario: { description: 'inline', clock: { start: '2032-02-02T00:00:00Z', frozen: true } } }),
    changed: (s) => expect(s.now).toBe('2032-02-02T00:00:00.000Z'),
  },
  { route: 'PUT journal', method: 'PUT', path: 'journal', body: () => ({ details: true }), changed: (s) => expect(s.details).toBe(true) },
  {
    route: 'PUT snapshot',
    method: 'PUT',
    path: 'snapshot',
    body: async (origin) => {
      await adminCall(origin, 'clock', { session: 'snapshot-source', body: { frozen: true, set: '2033-03-03T00:00:00Z' } });
      return (await adminCall(origin, 'snapshot', { session: 'snapshot-source' })).json;
    },
    changed: (s) => expect(s).toMatchObject({ now: '2033-03-03T00:00:00.000Z', entries: 0 }),
  },
];

/** Calls about the whole mock: they take no session. */
const GLOBAL = ['scenarios', 'sessions', 'metrics', 'evictions', 'admin.js'];

/** Calls `path` naming `id` by header or by query. */
function named(origin: string, path: string, id: string, via: Via, init: AdminInit = {}): Promise<AdminReply<any>> {
  if (via === 'header') return adminCall(origin, path, { ...init, session: id });
  return adminCall(origin, `${path}${path.includes('?') ? '&' : '?'}session=${encodeURIComponent(id)}`, init);
}

async function seen(origin: string, id?: string): Promise<Seen> {
  const q = id === undefined ? '' : `?session=${encodeURIComponent(id)}`;
  const clock = await adminCall<ClockJson>(origin, `clock${q}`);
  const scenario = await adminCall<{ name: string }>(origin, `scenario${q}`);
  const journal = await adminCall<{ details: boolean; entries: number }>(origin, `journal${q}`);
  return { now: clock.json.now, scenario: scenario.json.name, details: journal.json.details, entries: journal.json.entries };
}

/** The matrix of routes × (header, query) against the mock `origin()` gives. */
export function describeSessionSelection(home: string, origin: () => string): void {
  describe(`${home}: every admin call selects its session by X-Mock-Session or ?session=`, () => {
    beforeAll(async () => {
      await adminCall(origin(), 'clock', { body: { frozen: true, set: DEFAULT_AT } });
    });
    const cases = ROUTES.flatMap((c) => (['header', 'query'] as const).map((via) => ({ ...c, via })));
    it.each(cases)('$route by $via acts on the named session, not the default', async (c) => {
      const id = `sel-${c.route.replace(/\W+/g, '-')}-${c.via}`;
      const o = origin();
      // The named session: its own scenario, clock and one request, unlike the default's.
      await adminCall(o, 'scenario', { method: 'PUT', session: id, body: { name: 'empty-store' } });
      await adminCall(o, 'clock', { session: id, body: { frozen: true, set: NAMED_AT } });
      const api = await fetch(`${o}/v1/pets`, { headers: { authorization: 'Bearer demo-free', 'x-mock-session': id } });
      expect(api.status).toBe(200);
      const before = await seen(o);
      const body = c.body ? await c.body(o) : undefined;
      const reply = await named(o, c.path, id, c.via, { method: c.method, body });
      expect(reply.status, JSON.stringify(reply.json)).toBe(200);
      c.answer?.(reply.json, id);
      if (c.changed) c.changed(await seen(o, id));
      expect(await seen(o)).toEqual(before);
    });
    it('a call naming its session both ways, differently, is refused', async () => {
      const reply = await adminCall<ErrorJson>(origin(), 'clock?session=a', { session: 'b' });
      expect(reply.status).toBe(400);
      expect(reply.json.message).toContain('give one of them');
    });
    it.each(GLOBAL.flatMap((path) => (['header', 'query'] as const).map((via) => ({ path, via }))))(
      'GET $path takes no session: 400 by $via',
      async ({ path, via }) => {
        expect((await fetch(`${origin()}/__admin/${path}`)).status).toBe(200);
        const reply = await named(origin(), path, 'someone', via);
        expect(reply.status).toBe(400);
        expect(reply.json.message).toBe(
          `petstore-mock: GET /__admin/${path} is about the whole mock, not one session; send it without X-Mock-Session and ?session=.`,
        );
      },
    );
  });
}
