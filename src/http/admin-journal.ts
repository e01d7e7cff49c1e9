import type { Request, Router } from 'express';
import type { KeyIds } from '../core/state/key-id.js';
import { MockError } from '../core/errors.js';
import type { AdminState } from '../core/state/backend.js';
import { FILTER_FIELDS, JournalFilterError, compileFilter, type JournalFilter } from '../core/state/journal-query.js';
import { toHar } from '../core/state/har.js';
import { auditJournal } from '../core/audit/audit.js';
import { onlyParams, singleParam } from './admin-input.js';
import { namedSession } from './admin-session.js';

/** Query parameters the journal routes take: the filter's, and the others; `token` is the admin token's. */
const JOURNAL_PARAMS = new Set<string>([...FILTER_FIELDS, 'details', 'limit', 'format', 'token', 'session']);
const AUDIT_PARAMS = new Set(['session', 'key', 'token']);

/** The filter of a journal request's query. */
function filterOf(req: Request): JournalFilter {
  onlyParams(
    req,
    JOURNAL_PARAMS,
    (name) =>
      `the journal has no filter ${name}; filter by ${FILTER_FIELDS.join(', ')} (and ask for details=1, limit=N or format=har; name the session with session=ID).`,
  );
  const filter: JournalFilter = {};
  for (const name of FILTER_FIELDS) {
    const value = singleParam(req, 'journal', name);
    if (value !== undefined) filter[name] = value;
  }
  return filter;
}

function compiled(filter: JournalFilter, keyIds: KeyIds): ReturnType<typeof compileFilter> {
  try {
    return compileFilter(filter, keyIds);
  } catch (error) {
    if (error instanceof JournalFilterError) throw new MockError('admin_invalid_request', error.reason);
    throw error;
  }
}

function flag(req: Request, name: string): boolean {
  const value = singleParam(req, 'journal', name);
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '' || value === '1' || value === 'true') return true;
  throw new MockError('admin_invalid_request', `${name} takes 1 or 0 (true or false).`);
}

/**
 * The inspection routes: sessions, the filtered journal with optional details (or as a HAR file),
 * a count for assertions, recording of details per session, and the client audit of a session's
 * journal (docs/audit.md), which `?key=` narrows to one key.
 */
export function addJournalRoutes(router: Router, state: AdminState): void {
  router.get('/sessions', async (_req, res) => {
    res.json(await state.sessions());
  });
  router.get('/requests', async (req, res) => {
    const query = compiled(filterOf(req), state.keyIds);
    const limit = singleParam(req, 'journal', 'limit');
    if (limit !== undefined && !/^[1-9]\d{0,6}$/.test(limit))
      throw new MockError('admin_invalid_request', 'limit takes a whole number of entries from 1, the latest ones.');
    const format = singleParam(req, 'journal', 'format') ?? 'json';
    if (format !== 'json' && format !== 'har') throw new MockError('admin_invalid_request', 'format takes json (the default) or har (HTTP Archive 1.2).');
    // A HAR carries the recorded headers and bodies whenever there are some.
    const matching = (await state.requests(namedSession(req), format === 'har' || flag(req, 'details'))).filter((e) => query.matches(e));
    const entries = limit === undefined ? matching : matching.slice(-Number(limit));
    if (format === 'json') {
      res.json(entries);
      return;
    }
    const id = entries[0]?.session ?? namedSession(req) ?? 'default';
    res.setHeader('Content-Disposition', `attachment; filename="petstore-mock-${id.replace(/[^\w.-]/g, '_').slice(0, 64)}.har"`);
    res.json(toHar(entries, `${req.protocol}://${req.headers.host ?? 'localhost'}`));
  });
  router.get('/requests/count', async (req, res) => {
    const query = compiled(filterOf(req), state.keyIds);
    if (req.query.details !== undefined || req.query.limit !== undefined)
      throw new MockError('admin_invalid_request', 'GET /__admin/requests/count takes only the filters (method, path, status, code, key, since) and session.');
    const entries = await state.requests(namedSession(req), false);
    const info = await state.journal(namedSession(req));
    res.json({ count: entries.filter((e) => query.matches(e)).length, filter: query.describe(), session: info.session });
  });
  router.get('/journal', async (req, res) => {
    res.json(await state.journal(namedSession(req)));
  });
  router.put('/journal', async (req, res) => {
    const body: unknown = req.body;
    const details =
      body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 ? (body as { details?: unknown }).details : undefined;
    if (typeof details !== 'boolean') throw new MockError('admin_invalid_request', 'PUT /__admin/journal takes {"details": true} or {"details": false}.');
    res.json(await state.recordDetails(namedSession(req), details));
  });
  router.get('/audit', async (req, res) => {
    onlyParams(req, AUDIT_PARAMS, (name) => `the audit has no parameter ${name}; it takes session and key.`);
    const id = namedSession(req);
    const entries = await state.requests(id, true);
    res.json(auditJournal(entries, { key: singleParam(req, 'audit', 'key'), removalAt: await state.removalAt(id), keyIds: state.keyIds }));
  });
}
