import type { Request } from 'express';
import { MockError } from '../core/errors.js';

/**
 * The session an admin read names: `X-Mock-Session`, or `?session=` so that a link (the audit's,
 * the admin page's) can name it. Both with different values is a mistake, not a choice.
 */
export function namedSession(req: Request, header: string | undefined): string | undefined {
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
