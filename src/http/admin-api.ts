import express, { type NextFunction, type Request, type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isValidInstant, parseDuration } from '../core/state/clock.js';
import type { MockEngine } from '../core/pipeline/engine.js';
import { COMMON_HEADERS, MockError, renderError } from '../core/errors.js';
import { ScenarioError } from '../core/scenarios/scenario-compiler.js';
import { keyBucket, type World } from '../core/state/world.js';
import { addJournalRoutes } from './admin-journal.js';
import { adminPage } from './admin-page.js';
import type { HttpOptions } from './options.js';

const startedAt = Date.now();

function sessionHeader(req: Request): string | undefined {
  const value = req.headers['x-mock-session'];
  return Array.isArray(value) ? value[0] : value;
}

function tokenOf(req: Request): string | undefined {
  const auth = req.headers.authorization;
  const match = typeof auth === 'string' ? /^Bearer +(\S+)$/i.exec(auth) : null;
  if (match) return match[1];
  const header = req.headers['x-admin-token'];
  if (typeof header === 'string') return header;
  return typeof req.query.token === 'string' ? req.query.token : undefined;
}

/**
 * The admin API under `/__admin`: health, reset, scenarios, clock, request journal and a page.
 * `X-Mock-Session` selects the world, as on the API. Express hosts it because speed does not
 * matter here; it is loaded on the first admin request.
 */
export function createAdminHandler(engine: MockEngine, options: HttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The journal holds client-sent paths; escape <, > and & so no answer carries raw markup.
  app.set('json escape', true);
  const router = express.Router({ strict: true, caseSensitive: true });

  router.use((req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Mock-Session, X-Admin-Token');
      res.status(204).end();
      return;
    }
    if (options.adminToken !== undefined && tokenOf(req) !== options.adminToken) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="petstore-mock admin"');
      throw new MockError('admin_unauthorized', 'petstore-mock: this admin API is protected; send "Authorization: Bearer <admin token>" (the value of --admin-token).');
    }
    next();
  });
  router.use(express.json({ limit: '64kb', strict: true }));

  const world = (req: Request): World => engine.sessions.resolve(sessionHeader(req));

  router.get('/', (_req, res) => {
    res.type('html').send(adminPage());
  });
  router.get('/health', (req, res) => {
    // Memory is here so long runs (npm run soak) can watch for leaks from outside the process.
    const { rss, heapUsed } = process.memoryUsage();
    res.json({ status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000), sessions: engine.sessions.all().length, scenario: world(req).settings.scenario, memory: { rssBytes: rss, heapUsedBytes: heapUsed } });
  });
  router.post('/reset', (req, res) => {
    const w = world(req);
    w.reset();
    res.json({ reset: true, session: w.id, scenario: w.settings.scenario, clock: w.clock.state() });
  });
  router.get('/scenarios', (_req, res) => {
    res.json(options.admin?.listScenarios() ?? []);
  });
  router.get('/scenario', (req, res) => {
    const w = world(req);
    const known = options.admin?.listScenarios().find((s) => s.name === w.settings.scenario);
    res.json({ name: w.settings.scenario, description: known?.description ?? '', clock: w.clock.state() });
  });
  router.put('/scenario', (req, res) => {
    const body: unknown = req.body;
    const name = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { name?: unknown }).name : undefined;
    if (typeof name !== 'string' || name === '') throw new MockError('admin_invalid_request', 'petstore-mock: PUT /__admin/scenario needs a JSON body {"name": "<scenario>"}; GET /__admin/scenarios lists them.');
    if (!options.admin) throw new MockError('scenario_invalid', 'petstore-mock: scenarios are not available in this server.');
    try {
      options.admin.useScenario(name, sessionHeader(req));
    } catch (error) {
      if (error instanceof ScenarioError) throw new MockError('scenario_invalid', error.message);
      throw error;
    }
    const w = world(req);
    res.json({ name: w.settings.scenario, session: w.id, clock: w.clock.state() });
  });
  router.get('/clock', (req, res) => {
    res.json(world(req).clock.state());
  });
  router.post('/clock', (req, res) => {
    const w = world(req);
    applyClockChange(w, req.body);
    res.json(w.clock.state());
  });
  addJournalRoutes(router, engine, world);
  router.get('/keys', (req, res) => {
    const w = world(req);
    const now = w.clock.now();
    res.json(
      [...w.keys.values()].map((k) => {
        const report = w.limiter.peek(keyBucket(k.key), k.limits, now);
        return {
          key: k.key,
          plan: k.plan,
          limits: k.limits,
          revoked: k.revoked === true,
          remaining: report.remaining,
          reportedLimit: report.limit,
          reset: report.reset,
          bannedUntil: report.bannedUntil !== undefined ? new Date(report.bannedUntil).toISOString() : null,
        };
      }),
    );
  });

  app.use('/__admin', router);
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    next(new MockError('route_not_found', 'petstore-mock: no admin route there; the admin API has health, reset, scenarios, scenario, clock, sessions, requests, journal and keys under /__admin.'));
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = error instanceof MockError ? error : bodyError(error) ?? new MockError('internal_error', `petstore-mock: the admin API failed (${String(error)}).`);
    const answer = renderError(known);
    res.status(answer.status).set(answer.headers).send(answer.body);
  });
  return app;
}

/** The request-body errors of express.json (too large, bad charset or encoding, not JSON) as catalogue errors. */
function bodyError(error: unknown): MockError | undefined {
  const { type, status } = error as { type?: unknown; status?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return new MockError('admin_invalid_request', 'petstore-mock: the admin request body is not valid JSON.');
    case 'entity.too.large':
      return new MockError('payload_too_large', 'petstore-mock: admin request bodies are limited to 64 KiB (after decompression); send a smaller one.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new MockError('unsupported_media_type', 'petstore-mock: send admin request bodies as UTF-8 application/json, uncompressed or as gzip, deflate or br.');
    default:
      // Anything else the body reader refused (an aborted or mis-sized body) is the client's doing.
      return typeof status === 'number' && status >= 400 && status < 500
        ? new MockError('admin_invalid_request', 'petstore-mock: the admin request body could not be read; send it again in full.')
        : undefined;
  }
}

/** Applies `{"set": ISO}`, `{"advance": "90s"}` and/or `{"frozen": bool}` to a clock. */
function applyClockChange(world: World, body: unknown): void {
  const usage = 'petstore-mock: POST /__admin/clock takes {"set": "2030-12-05T00:00:00Z"}, {"advance": "90s"} and/or {"frozen": true|false}.';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new MockError('admin_invalid_request', usage);
  const { set, advance, frozen, ...rest } = body as { set?: unknown; advance?: unknown; frozen?: unknown };
  if (Object.keys(rest).length > 0 || (set === undefined && advance === undefined && frozen === undefined)) throw new MockError('admin_invalid_request', usage);
  let instant: number | undefined;
  if (set !== undefined) {
    instant = typeof set === 'string' ? Date.parse(set) : NaN;
    if (Number.isNaN(instant)) throw new MockError('admin_invalid_request', `petstore-mock: "set" must be an ISO-8601 instant such as 2030-12-05T00:00:00Z. ${usage}`);
  }
  let step: number | undefined;
  if (advance !== undefined) {
    step = typeof advance === 'string' || typeof advance === 'number' ? parseDuration(advance) : undefined;
    if (step === undefined) throw new MockError('admin_invalid_request', `petstore-mock: "advance" must be a duration such as "90s", "1m30s", "2h" or "1d". ${usage}`);
  }
  if (frozen !== undefined && typeof frozen !== 'boolean') throw new MockError('admin_invalid_request', usage);
  // Checked before anything changes, so a refused call leaves the clock as it was.
  if (!isValidInstant((instant ?? world.clock.now()) + (step ?? 0))) {
    throw new MockError('admin_invalid_request', 'petstore-mock: that would move the clock beyond the years -271821 to 275760 a date can hold; set or advance it less far.');
  }
  if (frozen === true) world.clock.freeze();
  if (instant !== undefined) world.clock.set(instant);
  if (step !== undefined) world.clock.advance(step);
  if (frozen === false) world.clock.unfreeze();
}
