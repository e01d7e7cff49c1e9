import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at } from '../support/checked.js';
import { launchChromium } from './chromium.js';

// The browser build as npm ships it (dist/browser.js, built by `npm run build` before the tests),
// loaded in headless Chromium behind MSW's service worker on a page served from 127.0.0.1.
const BUNDLE = resolve('dist/browser.js');

// The page's own code: what a Storybook or Vite app would write.
const PAGE_SCRIPT = `
import { http } from 'msw';
import { setupWorker } from 'msw/browser';
import { createFetchHandler } from ${JSON.stringify(BUNDLE)};

const petstore = createFetchHandler({
  scenarios: [
    { name: 'morning', description: 'the clock frozen at a whole minute', clock: { start: '2026-03-10T12:00:00Z', frozen: true } },
    {
      name: 'beta-outage',
      description: 'the beta client sees 503s',
      clock: { start: '2026-03-10T12:00:00Z', frozen: true },
      steps: [{ match: { headers: { 'x-client': 'beta' } }, times: 'forever', answer: { status: 503 } }],
    },
  ],
  scenario: 'morning',
});
const worker = setupWorker(http.all('https://api.example.test/*', ({ request }) => petstore(request)));
window.petstore = petstore;
window.ready = worker.start({ quiet: true, onUnhandledRequest: 'bypass' }).then(() => true);
`;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };

let dir: string;
let server: Server;
let origin: string;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-msw-'));
  // What `npx msw init <dir>` writes: MSW's worker script, at the root of the page's origin.
  copyFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
  await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: join(dir, 'app.js'),
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="/app.js"></script>');
  server = createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : at((req.url ?? '').slice(1).split('?'), 0);
    try {
      const body = readFileSync(join(dir, name));
      res.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction('window.ready !== undefined');
  expect(await page.evaluate('window.ready')).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((done) => server?.close(done));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  status: number;
  remaining: string | null;
  retryAfter: string | null;
  code?: string;
}

/** Sends `n` requests from the page; each goes through the service worker to the in-page mock. */
function send(n: number, headers: Record<string, string> = { authorization: 'Bearer demo-free' }): Promise<Seen[]> {
  return page.evaluate(
    async ({ n, headers }) => {
      const seen = [];
      for (let i = 0; i < n; i++) {
        const res = await fetch('https://api.example.test/v1/pets?limit=1', { headers });
        const body = (await res.json()) as { code?: string };
        seen.push({ status: res.status, remaining: res.headers.get('x-ratelimit-remaining'), retryAfter: res.headers.get('retry-after'), code: body.code });
      }
      return seen;
    },
    { n, headers },
  );
}

/** Runs a call on the page's handler: `petstore.clock.advance('60s')` and the like. */
function onHandler<T>(fn: string): Promise<T> {
  return page.evaluate(fn) as Promise<T>;
}

describe('petstore-mock/browser behind MSW in headless Chromium', () => {
  it('ships no Node built-in and imports nothing at run time', () => {
    const bundle = readFileSync(BUNDLE, 'utf8');
    expect(bundle).not.toMatch(/["'`]node:/);
    expect(bundle).not.toMatch(/getBuiltinModule|createRequire|import\.meta\.url|process\.(env|versions|cwd)/);
    expect(bundle).not.toMatch(/^\s*import\s/m);
    expect(bundle).not.toMatch(/\bimport\(/);
    expect(bundle).not.toMatch(/require\(["'](fs|path|url|module|zlib|http|os)["']\)/);
  });

  it('is what package.json exports as petstore-mock/browser, with its types', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, { types: string; default: string }> };
    expect(resolve(pkg.exports['./browser']?.default ?? '')).toBe(BUNDLE);
    expect(readFileSync(pkg.exports['./browser']?.types ?? '', 'utf8')).toContain(
      'export declare function createFetchHandler(options?: BrowserMockOptions): BrowserFetchHandler;',
    );
    // Node resolves a package's own name through its exports map, as an installed copy would.
    const seen = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('petstore-mock/browser'); console.log(typeof m.createFetchHandler)"],
      { encoding: 'utf8' },
    );
    expect(seen.trim()).toBe('function');
  });

  it('plays a free key up to its limit, answers 429 with Retry-After, and the advanced clock lets it through again', async () => {
    await onHandler('petstore.reset()');
    const first = await send(60);
    expect(first.every((s) => s.status === 200)).toBe(true);
    expect(at(first, 59).remaining).toBe('0');
    const [limited] = await send(1);
    expect(limited).toEqual({ status: 429, remaining: '0', retryAfter: '60', code: 'rate_limited' });
    await onHandler("petstore.clock.advance('60s')");
    const [again] = await send(1);
    expect(again).toEqual({ status: 200, remaining: '59', retryAfter: null, code: undefined });
    expect(await onHandler<number>('petstore.requests({ status: 429 }).length')).toBe(1);
    expect(await onHandler<number>("petstore.verify({ path: '/v1/pets', status: 200 }, 61).length")).toBe(61);
  });

  it('keeps sessions apart by X-Mock-Session, and lists them', async () => {
    await onHandler('petstore.reset()');
    await send(2, { authorization: 'Bearer demo-free', 'x-mock-session': 'story-a' });
    const other = at(await send(1), 0);
    expect(other.remaining).toBe('59');
    const sessions = await onHandler<{ id: string; requests: number; scenario: string }[]>('petstore.sessions()');
    expect(sessions.map((s) => [s.id, s.scenario, s.requests])).toEqual([
      ['default', 'morning', 1],
      ['story-a', 'morning', 2],
    ]);
  });

  it('switches to a scenario object by name: steps that match a header, forever', async () => {
    await onHandler("petstore.useScenario('beta-outage')");
    const beta = await send(3, { authorization: 'Bearer demo-free', 'x-client': 'beta' });
    expect(beta.map((s) => s.status)).toEqual([503, 503, 503]);
    expect(at(await send(1), 0).status).toBe(200);
    const error = await onHandler<string>(
      "(() => { try { petstore.useScenario({ name: 'typo', description: 'x', stepz: [] }); return 'no error'; } catch (e) { return e.message; } })()",
    );
    expect(error).toBe(
      'petstore-mock: the scenario "typo" at stepz: unknown key "stepz" in the scenario; the keys there are name, description, data, plans, keys, ban, usage, clock, deprecation, latency, profile, steps, repeat, chaos, operations, journal, retryAfterFormat; fix the object and try again.',
    );
  });
});
