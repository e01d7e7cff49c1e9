import express, { type NextFunction, type Request, type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpDate } from '../core/state/clock.js';
import type { AdminState } from '../core/state/backend.js';
import { unsupportedOnThisHome } from '../core/state/unsupported.js';
import { COMMON_HEADERS, MockError, UserError, named, renderError } from '../core/errors.js';
import { createAdminGuard } from './admin-guard.js';
import { bodyError, checkDepth, parseClockChange } from './admin-input.js';
import { addJournalRoutes } from './admin-journal.js';
import { addSnapshotRoutes } from './admin-snapshot.js';
import { namedSession, refuseSession } from './admin-session.js';
import { INSTANCE, uptimeSeconds } from '../instance.js';
import { PAGE_CSP, PAGE_PATHS, adminPage } from './admin-page.js';
import { addAssetRoutes } from './admin-assets.js';
import type { HttpOptions } from './options.js';

/** The session a call names, for the `Date` of its answer only: a mistake there is answered elsewhere. */
function datedSession(req: Request): string | undefined {
  try {
    return namedSession(req);
  } catch {
    return undefined;
  }
}

/**
 * The admin API under `/__admin`: health, reset, scenarios, clock, request journal and a page.
 * `X-Mock-Session` selects the session, as on the API. Three parts: the guard every call passes
 * (host, origin, token; see admin-guard.ts), the routes, and one error handler. Express
 * hosts it because speed does not matter here; it is loaded on the first admin request.
 */
export function createAdminHandler(state: AdminState, options: HttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The journal holds client-sent paths; escape <, > and & so no answer carries raw markup.
  app.set('json escape', true);
  const router = express.Router({ strict: true, caseSensitive: true });

  const guard = createAdminGuard(options);
  router.use((req, res, next) => {
    // No Access-Control-* header on any answer: the page is same-origin, and no other page may read these.
    for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
    let passed = false;
    // A refused call is dated by the default session's clock: it must not create the session it names.
    dateOnSessionClock(res, () => state.dateNow(passed ? datedSession(req) : undefined));
    // The page itself holds no data and asks for the token, so the admin link of a protected
    // server opens it instead of a JSON 401; the host check still applies to it.
    const page = (req.method === 'GET' || req.method === 'HEAD') && PAGE_PATHS.includes(req.path);
    guard(req.headers, typeof req.query.token === 'string' ? req.query.token : undefined, !page);
    passed = true;
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', 'GET, HEAD, POST, PUT, OPTIONS');
      res.status(204).end();
      return;
    }
    next();
  });
  // Calls about the whole mock, not one session: a session named there is a mistake, not ignored.
  router.use(refuseSession(['/scenarios', '/sessions', '/metrics', '/evictions', ...PAGE_PATHS.filter((p) => p !== '/')]));
  // Before the body reader below: a snapshot is read with a larger bound of its own.
  addSnapshotRoutes(router, state);
  // JSON whatever the Content-Type says (curl -d sends a form type), and no body at all for calls
  // that need none: cross-site requests are refused by the guard, not by their content type.
  router.use(express.json({ limit: '64kb', strict: true, type: () => true, verify: checkDepth }));

  router.get('/', (_req, res) => {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.type('html').send(adminPage());
  });
  router.get('/health', async (req, res) => {
    // Memory is here so long runs (npm run soak) can watch for leaks from outside the process.
    const { rss, heapUsed } = process.memoryUsage();
    // Which replica answered, and for how long its process has run (not since this module loaded).
    const instance = { instance: INSTANCE, uptimeSeconds: uptimeSeconds() };
    const log = options.logStats ? { log: { droppedLines: options.logStats.droppedLines, readerBehind: options.logStats.readerBehind === true } } : {};
    // A stopping server (its lame duck on SIGTERM) still answers, and says it is going, so that
    // readiness probes and load balancers' checks take it out before it stops accepting.
    if (options.stopping?.() === true) {
      res.status(503).json({ status: 'stopping', ...instance, ...log });
      return;
    }
    let health: Awaited<ReturnType<AdminState['health']>>;
    try {
      health = await state.health(namedSession(req));
    } catch (error) {
      // A replica whose shared state cannot be reached says so, so a load balancer takes it out.
      if (!(error instanceof MockError) || error.code !== 'state_unavailable') throw error;
      res.status(503).json({ status: 'unavailable', ...instance, state: state.stateReport?.() ?? null, error: error.message, ...log });
      return;
    }
    res.json({
      // Served, but some session's every request fails (see docs/scale-out.md): said, not hidden.
      status: health.state.failing ? 'degraded' : 'ok',
      ...instance,
      sessions: health.sessions,
      scenario: health.scenario,
      memory: { rssBytes: rss, heapUsedBytes: heapUsed },
      ...log,
      state: health.state,
    });
  });
  router.post('/reset', async (req, res) => {
    // The scenario's files are read again, as PUT /__admin/scenario and --watch read them.
    const done = await asScenarioError(state.reset(namedSession(req)));
    res.json({ reset: true, ...done });
  });
  router.get('/scenarios', (_req, res) => {
    res.json(state.listScenarios());
  });
  router.get('/scenario', async (req, res) => {
    const current = await state.scenario(namedSession(req));
    const known = state.listScenarios().find((s) => s.name === current.name);
    const description = current.definition?.description ?? known?.description ?? '';
    // When GET /v1/pets/{petId} is removed for this session: the client audit of a remote handle names it.
    const removalAt = new Date(await state.removalAt(namedSession(req))).toISOString();
    res.json({ name: current.name, description, definition: current.definition ?? null, clock: current.clock, removalAt });
  });
  router.put('/scenario', async (req, res) => {
    const body: unknown = req.body;
    const usage =
      'PUT /__admin/scenario needs a JSON body {"name": "<scenario>"} (GET /__admin/scenarios lists them) or {"scenario": {…what a scenario file holds…}}.';
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new MockError('admin_invalid_request', usage);
    const { name, scenario, ...rest } = body as { name?: unknown; scenario?: unknown };
    if (Object.keys(rest).length > 0 || (name === undefined) === (scenario === undefined)) throw new MockError('admin_invalid_request', usage);
    if (scenario !== undefined) {
      // A name where the object goes is the other form mistaken: say both.
      if (scenario === null || typeof scenario !== 'object' || Array.isArray(scenario)) throw new MockError('admin_invalid_request', usage);
      if (!state.applyScenario) throw unsupportedOnThisHome('scenario objects');
      res.json(await state.applyScenario(namedSession(req), scenario));
      return;
    }
    if (typeof name !== 'string' || name === '') throw new MockError('admin_invalid_request', usage);
    res.json(await asScenarioError(state.useScenario(name, namedSession(req))));
  });
  router.get('/clock', async (req, res) => {
    res.json(await state.clock(namedSession(req)));
  });
  router.post('/clock', async (req, res) => {
    res.json(await state.changeClock(namedSession(req), parseClockChange(req.body)));
  });
  addJournalRoutes(router, state);
  addAssetRoutes(router);
  // Prometheus text; the Redis series only on a shared state, and state_up 0 while it cannot be asked.
  router.get('/metrics', async (_req, res) => {
    const engine = state.stateReport?.().engine ?? 'memory';
    let sessions: number | undefined;
    let reportsDeployment = false;
    try {
      const health = await state.health(undefined);
      sessions = health.sessions;
      reportsDeployment = health.reportsDeployment === true;
    } catch {
      // A scrape still answers while the shared state cannot: state_up 0 says so.
    }
    const body = options.metrics?.render({ engine, sessions, reportsDeployment }) ?? '';
    res.type('text/plain; version=0.0.4; charset=utf-8').send(body);
  });
  router.get('/evictions', async (_req, res) => {
    res.json(await state.evictions());
  });
  router.get('/keys', async (req, res) => {
    res.json(await state.keys(namedSession(req)));
  });

  app.use('/__admin', router);
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    next(
      new MockError(
        'route_not_found',
        'no admin route there; the admin API has health, metrics, reset, scenarios, scenario, clock, sessions, requests, journal, audit, snapshot, keys and evictions under /__admin.',
      ),
    );
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = error instanceof MockError ? error : (bodyError(error) ?? new MockError('internal_error', `the admin API failed (${String(error)}).`));
    // Admin answers name the tool: the person reading one may not know which server answered.
    const answer = renderError(new MockError(known.code, named(known.message), { status: known.status, details: known.details, headers: known.headers }));
    res.status(answer.status).set(answer.headers).send(answer.body);
  });
  return app;
}

/** Awaits a scenario change; a scenario or fixtures file with a mistake answers `scenario_invalid`. */
async function asScenarioError<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (error instanceof UserError) throw new MockError('scenario_invalid', error.reason);
    throw error;
  }
}

/**
 * Dates the answer on the session's clock, read when the head is written: the request itself may
 * move the clock (POST clock, PUT scenario, POST reset), and the answer is dated after it.
 */
function dateOnSessionClock(res: Response, now: () => number): void {
  const writeHead = res.writeHead;
  res.writeHead = ((...args: unknown[]) => {
    if (!res.headersSent) res.setHeader('Date', httpDate(now()));
    return Reflect.apply(writeHead, res, args) as Response;
  }) as typeof res.writeHead;
}
