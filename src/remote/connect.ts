// connectMock: the handle of a mock running in another process or container, over its admin API.
// It is the handle startMock() gives on a shared state (members answer with promises), less what
// only the process that runs the server has (close, the engine), built by the same `assemble`
// over the same session controls: only the home's operations (`SessionOps`) are remote here.
import { assemble, type MockHandle } from '../assembly.js';
import type { SessionHandle } from '../controls.js';
import type { ClockChange, JournalInfo, SessionOps } from '../core/state/backend.js';
import type { KeyView } from '../core/state/key-view.js';
import type { ClockState } from '../core/state/clock.js';
import type { JournalEntry } from '../core/state/journal.js';
import type { SessionSummary } from '../core/state/sessions.js';
import type { SnapshotDocument } from '../core/state/snapshot.js';
import type { KeyConfig } from '../core/types.js';
import { MockError, UserError } from '../core/errors.js';
import { AdminCallError, adminClient, type AdminClient } from './admin-client.js';

/** How to reach a mock in another process. */
export interface ConnectOptions {
  /** The mock's `--admin-token`, when it was started with one. */
  adminToken?: string;
}

/** What a connected handle knows of where the mock is. */
export interface Connected {
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  /** The mock's origin, e.g. http://127.0.0.1:4010. */
  origin: string;
}

/**
 * The handle of a mock in another process: the members of a shared state's `startMock()` handle
 * (`MockHandle<true>`: every member answers with a promise), without `close()`.
 */
export type RemoteMock = MockHandle<true, Connected>;

type Changed = { session: string; scenario: string; clock: ClockState };
type Named = { name: string; session: string; clock: ClockState };

/** A clock the mock refused to move is the admin API's refusal, as the controls read it from every home (a RangeError). */
async function clockRefusal(answer: Promise<ClockState>): Promise<ClockState> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof AdminCallError && error.code === 'admin_invalid_request') throw new MockError('admin_invalid_request', error.reason);
    throw error;
  }
}

/** The session operations over the admin API: what the controls of `startMock` ask the home, asked over HTTP. */
function remoteOps(admin: AdminClient): SessionOps<true> {
  return {
    reset: (session) => admin<Changed>('reset', { method: 'POST', session }),
    // The admin API switches by name: the mock reads no paths it is sent.
    useScenario: (name, session) => admin<Named>('scenario', { method: 'PUT', session, body: { name } }),
    clock: (session) => admin<ClockState>('clock', { session }),
    changeClock: (session, change: ClockChange) =>
      clockRefusal(
        admin<ClockState>('clock', {
          method: 'POST',
          session,
          body: {
            ...(change.frozen !== undefined && { frozen: change.frozen }),
            ...(change.set !== undefined && { set: new Date(change.set).toISOString() }),
            ...(change.advance !== undefined && { advance: `${change.advance}ms` }),
          },
        }),
      ),
    requests: (session, details = false) => admin<JournalEntry[]>('requests', { session, query: details ? { details: '1' } : {} }),
    recordDetails: (session, on) => admin<JournalInfo>('journal', { method: 'PUT', session, body: { details: on } }),
    removalAt: async (session) => Date.parse((await admin<{ removalAt: string }>('scenario', { session })).removalAt),
    snapshot: (session) => admin<SnapshotDocument>('snapshot', { session }),
    restore: (session, document) => admin<Changed>('snapshot', { method: 'PUT', session, body: document }),
    applyScenario: (session, scenario) => admin<Named>('scenario', { method: 'PUT', session, body: { scenario } }),
    sessions: () => admin<SessionSummary[]>('sessions'),
  };
}

/** The origin of a mock from its origin or its API base URL (`…/v1`), without a trailing slash. */
function originOf(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new UserError(`connectMock needs the mock's origin, such as http://127.0.0.1:4010, not ${JSON.stringify(address)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(`connectMock needs an http or https origin, not ${JSON.stringify(address)}.`);
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== '/v1') throw new UserError(`connectMock needs the mock's origin (or its /v1 base URL), not ${JSON.stringify(address)}.`);
  return url.origin;
}

/**
 * Connects to a mock running in another process or container (a global setup's, a CI service's):
 * the handle `startMock()` gives, less `close()`, over the mock's admin API. Every member answers
 * with a promise; `session(id)` drives the session that requests with `X-Mock-Session: id` see.
 * Resolves once the mock answered (its keys read); an admin API refusal rejects with an Error
 * carrying the mock's message.
 */
export async function connectMock(origin: string, options: ConnectOptions = {}): Promise<RemoteMock> {
  const base = originOf(origin);
  const admin = adminClient(base, options.adminToken);
  const keys = (await admin<KeyView[]>('keys')).map((k): KeyConfig => ({ key: k.key, plan: k.plan, limits: k.limits, ...(k.revoked && { revoked: true }) }));
  const front: Connected = { url: `${base}/v1`, origin: base };
  return assemble<true, Connected, SessionHandle<true>>(
    { ops: remoteOps(admin), asynchronous: true, sessions: () => admin<SessionSummary[]>('sessions') },
    keys,
    front,
    { origin: () => base },
  );
}
