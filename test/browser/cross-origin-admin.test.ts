import { subscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { T0, call, post } from '../support/mock.js';
import { launchChromium } from './chromium.js';

// A page of another origin tries what the report did: a no-cors fetch of a costly journal query,
// an <img> of it, and no-cors state changes. Chromium sends them with Sec-Fetch-Site (and Origin
// on the POSTs); the mock must refuse each before doing any work, and change nothing.

let mock: RunningMock;
let attacker: Server;
let attackerPort: number;
/** The same page from 127.0.0.2: another site than 127.0.0.1 for the browser (an address is its own site). */
let otherSite: Server;
let otherSitePort: number;
let browser: Awaited<ReturnType<typeof launchChromium>>;

const hostilePage = (admin: string): string => `<!doctype html><title>not the mock</title><script>
window.attack = (async () => {
  const admin = ${JSON.stringify(admin)};
  const types = [];
  const quiet = (p) => p.then((r) => types.push(r.type), () => types.push('error'));
  await quiet(fetch(admin + '/requests?path=' + encodeURIComponent('/*a*a*a*a*b'), { mode: 'no-cors' }));
  await quiet(fetch(admin + '/reset', { method: 'POST', mode: 'no-cors' }));
  await quiet(fetch(admin + '/clock', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"advance":"1d"}' }));
  await new Promise((done) => { const img = new Image(); img.onload = img.onerror = done; img.src = admin + '/requests?path=/*a*a*b'; });
  return types;
})();
</script>`;

/** Serves the hostile page on `host` and a free port. */
async function serveHostile(host: string): Promise<[Server, number]> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(hostilePage(`${mock.origin}/__admin`));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return [server, (server.address() as { port: number }).port];
}

beforeAll(async () => {
  mock = await startMock();
  mock.clock.freeze();
  mock.clock.set(T0);
  [attacker, attackerPort] = await serveHostile('127.0.0.1');
  [otherSite, otherSitePort] = await serveHostile('127.0.0.2');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await new Promise((resolve) => otherSite?.close(resolve));
  await mock?.close();
});

interface Seen {
  method: string;
  path: string;
  status: number;
  site: string | undefined;
}

/** Every admin request the mock's server answered, as the server saw it (ORB hides refused answers from the page's events). */
const answered: Seen[] = [];
subscribe('http.server.response.finish', (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  if (!request.url?.startsWith('/__admin/')) return;
  const site = request.headers['sec-fetch-site'];
  answered.push({
    method: request.method ?? '',
    path: request.url.split('?')[0] ?? '',
    status: response.statusCode,
    site: typeof site === 'string' ? site : undefined,
  });
});

/** Opens `url` in a fresh page, runs the attack, and returns what the page got and what the mock answered. */
async function attackFrom(url: string): Promise<{ seen: Seen[]; types: string[] }> {
  answered.length = 0;
  const page: Page = await browser.context.newPage();
  await page.goto(url);
  const types = (await page.evaluate('window.attack')) as string[];
  await page.close();
  return { seen: [...answered], types };
}

describe('a page of another origin against the admin API, in headless Chromium', () => {
  it.each([
    ['another port of 127.0.0.1 (same-site)', (): string => `http://127.0.0.1:${attackerPort}/`, 'same-site'],
    ['another address, 127.0.0.2 (cross-site)', (): string => `http://127.0.0.2:${otherSitePort}/`, 'cross-site'],
  ])('from %s: every admin request is refused 403, the mock did nothing', async (_what, url, site) => {
    await call(mock, '/v1/pets', { ...post({ name: 'Kept', categoryId: 1 }), key: 'demo-enterprise' });
    const before = (await call(mock, '/v1/pets?limit=100', { key: 'demo-enterprise' })).text;
    const { seen, types } = await attackFrom(url());
    // The page learns nothing: opaque answers (or errors) only.
    expect(types.every((t) => t === 'opaque' || t === 'error')).toBe(true);
    // The browser did send all four, and each was refused by the mock before any route ran.
    expect(seen.map((s) => s.path).sort()).toEqual(['/__admin/clock', '/__admin/requests', '/__admin/requests', '/__admin/reset']);
    expect(seen.map((s) => s.status)).toEqual([403, 403, 403, 403]);
    expect(seen.map((s) => s.site)).toEqual([site, site, site, site]);
    // Nothing changed: the store keeps its animal, the clock stands where it was.
    expect((await call(mock, '/v1/pets?limit=100', { key: 'demo-enterprise' })).text).toBe(before);
    expect(before).toContain('"Kept"');
    expect(mock.clock.now().getTime()).toBe(T0);
  });

  it("the admin page's own calls still work (same origin)", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${mock.origin}/__admin/`);
    const statuses = await page.evaluate(async () => {
      const reset = await fetch('/__admin/reset', { method: 'POST', headers: { 'content-type': 'application/json' } });
      const requests = await fetch('/__admin/requests?path=/*a*a*b');
      return [reset.status, requests.status];
    });
    await page.close();
    expect(statuses).toEqual([200, 200]);
    expect((await call(mock, '/v1/pets?limit=100', { key: 'demo-enterprise' })).text).not.toContain('"Kept"');
  });
});
