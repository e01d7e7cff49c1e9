import express, { type Request, type Router } from 'express';
import { MockError } from '../core/errors.js';
import type { AdminState } from '../core/state/backend.js';
import { unsupportedOnThisHome } from '../core/state/snapshot-restore.js';
import { checkDepth } from './admin-input.js';
import { MAX_SNAPSHOT_BYTES } from '../core/state/snapshot.js';

const PARAMS = new Set(['session', 'token']);

/** The session a snapshot call names, by `X-Mock-Session` or `?session=` (a page link can name it); both must agree. */
function sessionOf(req: Request, header: string | undefined): string | undefined {
  for (const name of Object.keys(req.query)) {
    if (!PARAMS.has(name))
      throw new MockError('admin_invalid_request', `the snapshot has no parameter ${JSON.stringify(name.slice(0, 40))}; it takes session.`);
  }
  const named = req.query.session;
  if (named !== undefined && typeof named !== 'string') throw new MockError('admin_invalid_request', 'give ?session= once, as a plain value.');
  if (header !== undefined && named !== undefined && header !== named) {
    throw new MockError(
      'admin_invalid_request',
      `X-Mock-Session says ${JSON.stringify(header)} and ?session= says ${JSON.stringify(named)}; give one of them.`,
    );
  }
  return header ?? named;
}

/**
 * `GET /__admin/snapshot` and `PUT /__admin/snapshot` (docs/snapshots.md). Added before the admin
 * API's own body reader: a snapshot may be far larger than the 64 KiB other admin bodies are held to.
 */
export function addSnapshotRoutes(router: Router, state: AdminState, session: (req: Request) => string | undefined): void {
  router.get('/snapshot', async (req, res) => {
    const id = sessionOf(req, session(req));
    if (!state.snapshot) throw unsupportedOnThisHome('snapshots');
    res.json(await state.snapshot(id));
  });
  router.put('/snapshot', express.json({ limit: MAX_SNAPSHOT_BYTES, strict: true, type: () => true, verify: checkDepth }), async (req, res) => {
    const id = sessionOf(req, session(req));
    if (!state.restore) throw unsupportedOnThisHome('snapshots');
    res.json({ restored: true, ...(await state.restore(id, req.body as unknown)) });
  });
}
