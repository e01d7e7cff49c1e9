// Generated histories of a session for the snapshot tests: the actions, a scenario that has steps,
// chaos, latency, a tiny key and quick bans, and a way to play actions against any mock.
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SnapshotDocument } from '../../src/core/state/snapshot.js';

/** A scenario with everything a snapshot must carry on part-way, a declared operation's place in its answers included. */
export const SCENARIO_YAML = `name: snapshot-history
description: Steps on createPet, chaos on listPets, seeded latency, a tiny key and quick bans.
keys:
  - { key: tiny, plan: free, perMinute: 4, perDay: 9 }
ban: { after: 2, duration: 2m }
steps:
  - match: { operation: createPet }
    times: 2
    answer: normal
  - match: { operation: createPet }
    answer: { status: 503, retryAfter: 5 }
repeat: true
chaos:
  seed: 7
  match: { operation: listPets }
  answers:
    - { probability: 0.2, answer: { status: 500 } }
    - { probability: 0.1, answer: { status: 503, retryAfter: 2 } }
    - { probability: 0.05, answer: { fault: reset } }
latency: { min: 0, max: 1, seed: 3 }
journal: { size: 40 }
operations:
  - operationId: listOrders
    method: GET
    path: /v1/store/orders
    answers:
      - { status: 200, body: [{ id: 1 }], times: 2 }
      - { status: 503, body: { code: busy } }
      - { status: 200, body: [] }
`;

/** The scenario written to a file of its own, as `useScenario` and `--scenario` take it. */
export function scenarioFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'snapshot-history-')), 'snapshot-history.yaml');
  writeFileSync(file, SCENARIO_YAML);
  return file;
}

/** One thing a client or a test does to a session. */
export type Action =
  | { op: 'create'; key: string; name: string; categoryId: string; status?: string }
  | { op: 'list'; key: string; limit: number; status?: string }
  | { op: 'get'; key: string; id: number }
  | { op: 'order'; key: string }
  | { op: 'spam'; key: string | null; n: number }
  | { op: 'advance'; ms: number }
  | { op: 'real'; ms: number }
  | { op: 'freeze' }
  | { op: 'unfreeze' }
  | { op: 'details'; on: boolean }
  /** Restores the session's own snapshot with these ids (those it holds) added to the store's removed ones, then gets each. */
  | { op: 'forget'; ids: number[] };

const key = fc.constantFrom('demo-pro', 'tiny', 'demo-free');
const status = fc.option(fc.constantFrom('available', 'pending', 'sold'), { nil: undefined });

/** The actions of a history: store operations, quota spent in both windows, bans, clock moves. */
export const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      key,
      name: fc.string({ minLength: 1, maxLength: 12 }),
      // Past 2^53 too: the snapshot must keep an int64 exactly.
      categoryId: fc.oneof(fc.integer({ min: 0, max: 1000 }).map(String), fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }).map(String)),
      status,
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ op: fc.constant('list' as const), key, limit: fc.integer({ min: 1, max: 100 }), status }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('get' as const), key, id: fc.integer({ min: 1, max: 70 }) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('order' as const), key }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('spam' as const), key: fc.constantFrom('tiny', null), n: fc.integer({ min: 1, max: 16 }) }), weight: 2 },
  {
    arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 0, max: 150_000 }), fc.constant(86_400_000)) }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant('real' as const), ms: fc.integer({ min: 0, max: 90_000 }) }), weight: 1 },
  { arbitrary: fc.constantFrom({ op: 'freeze' as const }, { op: 'unfreeze' as const }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('details' as const), on: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('forget' as const), ids: fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 1, maxLength: 4 }) }), weight: 1 },
);

/** One answer as the comparison reads it: status, every header in order, the body's bytes. */
export interface Seen {
  status: number;
  headers: [string, string][];
  body: string;
}

/** What the actions need from a mock: one request, and the session's clock. */
export interface Target {
  send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Seen>;
  clock: { advance(ms: number): unknown; freeze(): unknown; unfreeze(): unknown };
  recordDetails(on: boolean): unknown;
  /** Moves the real time the mock's clocks run on (a controlled time source). */
  moveReal(ms: number): void;
  snapshot(): Promise<SnapshotDocument> | SnapshotDocument;
  restore(doc: object): unknown;
}

/** Plays `actions` against a target; returns every answer seen, in order. */
export async function play(target: Target, actions: readonly Action[]): Promise<Seen[]> {
  const seen: Seen[] = [];
  const auth = (k: string | null): Record<string, string> => (k === null ? {} : { authorization: `Bearer ${k}` });
  for (const a of actions) {
    switch (a.op) {
      case 'create': {
        const body = `{"name":${JSON.stringify(a.name)},"categoryId":${a.categoryId}${a.status ? `,"status":"${a.status}"` : ''}}`;
        seen.push(await target.send('POST', '/v1/pets', { ...auth(a.key), 'content-type': 'application/json' }, body));
        break;
      }
      case 'list':
        seen.push(await target.send('GET', `/v1/pets?limit=${a.limit}${a.status ? `&status=${a.status}` : ''}`, auth(a.key)));
        break;
      case 'get':
        seen.push(await target.send('GET', `/v1/pets/${a.id}`, auth(a.key)));
        break;
      case 'order':
        seen.push(await target.send('GET', '/v1/store/orders', auth(a.key)));
        break;
      case 'spam':
        for (let i = 0; i < a.n; i++) seen.push(await target.send('GET', '/v1/pets?limit=1', auth(a.key)));
        break;
      case 'advance':
        await target.clock.advance(a.ms);
        break;
      case 'real':
        target.moveReal(a.ms);
        break;
      case 'freeze':
        await target.clock.freeze();
        break;
      case 'unfreeze':
        await target.clock.unfreeze();
        break;
      case 'details':
        await target.recordDetails(a.on);
        break;
      case 'forget': {
        const doc = await target.snapshot();
        const held = new Set([...doc.store.base, ...doc.store.created].map((pet) => pet.id));
        const removed = [...new Set([...(doc.store.removed ?? []), ...a.ids.filter((id) => held.has(id))])].sort((x, y) => x - y);
        await target.restore({ ...doc, store: { ...doc.store, removed } });
        // Asked for at once, so a home that still holds one of them tells; the page ends just past
        // the 50 seeded animals, so a removed one makes it reach further into the created ones.
        for (const id of a.ids) seen.push(await target.send('GET', `/v1/pets/${id}`, auth('demo-pro')));
        seen.push(await target.send('GET', '/v1/pets?limit=52', auth('demo-pro')));
        break;
      }
    }
  }
  return seen;
}

/** A response as `Seen`; a connection fault (a network error) as status 0. */
export async function seenOf(res: Response): Promise<Seen> {
  return { status: res.status, headers: [...res.headers], body: await res.text() };
}

/** A journal entry without what differs between two runs of the same request: the wall time the core took. */
export function comparable(entry: object): object {
  // The wall times a request took and arrived at, read from the process's own clock.
  const { durationMs: _duration, arrivalMs: _arrival, queuedMs: _queued, ...rest } = entry as { durationMs?: number; arrivalMs?: number; queuedMs?: number };
  return rest;
}

/**
 * A journal's entries as `comparable` gives them, each `keyId` renamed by order of first appearance
 * (`key-1`, `key-2`, …): ids are salted per mock, so two mocks give one key different ids, and what
 * must hold across them is which entries share a key.
 */
export function comparableJournal(entries: readonly object[]): object[] {
  const names = new Map<string, string>();
  return entries.map((entry) => {
    const { keyId, ...rest } = comparable(entry) as { keyId?: string };
    if (keyId === undefined) return rest;
    if (!names.has(keyId)) names.set(keyId, `key-${names.size + 1}`);
    return { ...rest, keyId: names.get(keyId) };
  });
}
