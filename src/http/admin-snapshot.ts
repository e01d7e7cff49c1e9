import express, { type Request, type Router } from 'express';
import { MockError } from '../core/errors.js';
import type { AdminState } from '../core/state/backend.js';
import { unsupportedOnThisHome } from '../core/state/unsupported.js';
import { checkDepth, onlyParams } from './admin-input.js';
import { sessionHeader } from './admin-session.js';
import { MAX_SNAPSHOT_BYTES } from '../core/state/snapshot.js';

const PARAMS = new Set(['session', 'token', 'before']);

/** The session a snapshot call names, by `X-Mock-Session` or `?session=` (a page link can name it); both must agree. */
function sessionOf(req: Request): string | undefined {
  const header = sessionHeader(req);
  onlyParams(req, PARAMS, (name) => `the snapshot has no parameter ${name}; it takes session (and, to GET, before=SEQ).`);
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
export function addSnapshotRoutes(router: Router, state: AdminState): void {
  router.get('/snapshot', async (req, res) => {
    const id = sessionOf(req);
    if (!state.snapshot) throw unsupportedOnThisHome('snapshots');
    const before = req.query.before;
    if (before !== undefined) {
      if (typeof before !== 'string' || !/^[1-9]\d{0,15}$/.test(before))
        throw new MockError('admin_invalid_request', 'before takes the seq of a request of the journal (a whole number from 1), once.');
      if (!state.snapshotBefore)
        throw new MockError(
          'snapshot_unsupported',
          'snapshots from before a request (?before=SEQ) are kept by the in-memory mock only; on shared state (--state), take GET /__admin/snapshot before sending the request instead.',
        );
      res.json(await state.snapshotBefore(id, Number(before)));
      return;
    }
    res.json(await state.snapshot(id));
  });
  router.put('/snapshot', refuseBefore, express.json({ limit: MAX_SNAPSHOT_BYTES, strict: true, type: () => true, verify: checkDepth }), async (req, res) => {
    const id = sessionOf(req);
    if (!state.restore) throw unsupportedOnThisHome('snapshots');
    res.json({ restored: true, ...(await state.restore(id, req.body as unknown)) });
  });
}

/** `before` names a past state to read; a restore takes none. */
function refuseBefore(req: Request, _res: unknown, next: () => void): void {
  if (req.query.before !== undefined) throw new MockError('admin_invalid_request', 'PUT /__admin/snapshot takes no before=; it restores the document sent.');
  next();
}
