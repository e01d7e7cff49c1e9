import type { NextFunction, Request, Response } from 'express';
import { MockError } from '../core/errors.js';

export function sessionHeader(req: Request): string | undefined {
  const value = req.headers['x-mock-session'];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The session an admin call names: `X-Mock-Session`, or `?session=` so that a link (the audit's,
 * the admin page's) can name it. Both with different values is a mistake, not a choice.
 */
export function namedSession(req: Request): string | undefined {
  const header = sessionHeader(req);
  const value = req.query.session;
  if (value === undefined) return header;
  if (typeof value !== 'string') throw new MockError('admin_invalid_request', 'the parameter session must be given once, as a plain value.');
  if (header !== undefined && header !== value)
    throw new MockError(
      'admin_invalid_request',
      `X-Mock-Session says ${JSON.stringify(header)} and ?session= says ${JSON.stringify(value)}; give one of them.`,
    );
  return value;
}

/**
 * Refuses a session named on calls about the whole mock (the scenario catalogue, the session list,
 * metrics, evictions, the page's files): answered 400 rather than acting on, or showing, another.
 */
export function refuseSession(paths: readonly string[]): (req: Request, res: Response, next: NextFunction) => void {
  return (req, _res, next) => {
    if (paths.includes(req.path) && (req.headers['x-mock-session'] !== undefined || req.query.session !== undefined)) {
      throw new MockError(
        'admin_invalid_request',
        `${req.method} /__admin${req.path} is about the whole mock, not one session; send it without X-Mock-Session and ?session=.`,
      );
    }
    next();
  };
}
