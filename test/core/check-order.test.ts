import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/core/input/body.js';
import { MockEngine } from '../../src/core/pipeline/engine.js';
import { parseKeySpec } from '../../src/core/state/plans.js';
import { buildBaseData, defaultSettings } from '../../src/core/state/session-settings.js';
import type { CoreRequest } from '../../src/core/types.js';
import { CHECK_ORDER_CASES } from '../support/check-order-cases.js';

/** The request an adapter would hand the core for `path` and a fetch-style init. */
function coreRequest(path: string, init: { method?: string; headers?: Record<string, string>; body?: string; key?: string | null }): CoreRequest {
  const { key = 'demo-free', method = 'GET' } = init;
  const headers: Record<string, string> = { ...init.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const q = path.indexOf('?');
  const body = init.body === undefined ? undefined : new TextEncoder().encode(init.body);
  const tooLarge = body !== undefined && body.length > MAX_BODY_BYTES;
  return {
    method,
    path: q === -1 ? path : path.slice(0, q),
    query: q === -1 ? '' : path.slice(q + 1),
    headers,
    body: tooLarge ? new Uint8Array(0) : body,
    bodyTooLarge: tooLarge,
    remoteAddress: '127.0.0.1',
  };
}

describe('the order of checks, on the engine without a socket', () => {
  it.each(CHECK_ORDER_CASES)('%s', (_what, path, init, status, code) => {
    const engine = new MockEngine({ settings: defaultSettings(buildBaseData({ count: 30 }), [parseKeySpec('tiny:free:1:1000')]) });
    const response = engine.handle(coreRequest(path, init as Parameters<typeof coreRequest>[1]));
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body ?? '{}')).toMatchObject({ code, status });
  });
});
