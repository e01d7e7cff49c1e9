import type { Router } from 'express';
import { MockError } from '../core/errors.js';
import { auditJournal } from '../core/audit/audit.js';
import type { AdminState } from '../core/state/backend.js';
import { singleParam } from './admin-input.js';
import { namedSession } from './admin-session.js';

const PARAMS = new Set(['session', 'key', 'token']);

/**
 * `GET /__admin/audit`: the client audit of a session's journal (docs/audit.md). The session comes
 * from `X-Mock-Session` or `?session=` (a page link can name it); `?key=` narrows to one key.
 * Looking creates no session: the journal is read as the other inspection routes read it.
 */
export function addAuditRoute(router: Router, state: AdminState): void {
  router.get('/audit', async (req, res) => {
    for (const name of Object.keys(req.query)) {
      if (!PARAMS.has(name))
        throw new MockError('admin_invalid_request', `the audit has no parameter ${JSON.stringify(name.slice(0, 40))}; it takes session and key.`);
    }
    const id = namedSession(req);
    const entries = await state.requests(id, true);
    res.json(auditJournal(entries, { key: singleParam(req, 'audit', 'key'), removalAt: await state.removalAt(id), keyIds: state.keyIds }));
  });
}
