import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserDocSnippets, writeDocApp } from '../support/doc-app.js';
import { launchChromium } from './chromium.js';

// A Vite app set up exactly as docs/browser.md says (its src/mocks/browser.ts and src/main.ts,
// MSW's worker from `msw init`), built with `vite build` and served with a strict
// Content-Security-Policy: the page must list, create and meet a 429 without 'unsafe-eval'.

const CSP = "script-src 'self'";
const API = 'https://api.example.test/v1';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.svg': 'image/svg+xml', '.css': 'text/css' };

let dir: string;
let server: Server;
let origin: string;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const buildOutput: Record<string, string> = {};
const violations: string[] = [];
const pageErrors: string[] = [];

/** `vite build` in the app, as `npx vite build` runs it; returns what it printed. */
async function viteBuild(outDir: string, env: Record<string, string> = {}): Promise<string> {
  const { NODE_ENV: _runner, ...shell } = process.env;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir], {
    cwd: dir,
    // A developer's shell: the test runner's NODE_ENV=test would make the build a development one.
    env: { ...shell, ...env, NO_COLOR: '1' },
  });
  return stdout + stderr;
}

/** The built JavaScript files of a build: name and text. */
function scripts(outDir: string): { name: string; text: string }[] {
  const assets = join(dir, outDir, 'assets');
  return readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((name) => ({ name, text: readFileSync(join(assets, name), 'utf8') }));
}

/** Opens the app and waits for MSW's worker to answer (MSW logs it once `worker.start()` is done). */
async function open(how: 'goto' | 'reload'): Promise<void> {
  const started = page.waitForEvent('console', { predicate: (m) => m.text().includes('Mocking enabled'), timeout: 20_000 });
  if (how === 'goto') await page.goto(`${origin}/`);
  else await page.reload();
  await started.catch((error: unknown) => {
    throw new Error(`the app never started MSW (${String(error)}); page errors: ${JSON.stringify(pageErrors)}; console: ${JSON.stringify(violations)}`);
  });
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A request from the page's own code: it goes through MSW's worker to the mock in the page. */
function call(method: string, path: string, body?: unknown): Promise<Seen> {
  return page.evaluate(
    async ({ url, method, body }) => {
      const init: RequestInit = { method, headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' } };
      if (body !== undefined) init.body = JSON.stringify(body);
      const res = await fetch(url, init);
      return { status: res.status, headers: Object.fromEntries(res.headers), body: (await res.json()) as unknown };
    },
    { url: `${API}${path}`, method, body },
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-vite-app-'));
  writeDocApp(dir);
  // One build with the mock, as for a demo or an end-to-end run, and the production build.
  buildOutput.mocked = await viteBuild('dist-mock', { VITE_PETSTORE_MOCK: 'on' });
  buildOutput.production = await viteBuild('dist-prod');
  const root = join(dir, 'dist-mock');
  server = createServer((req, res) => {
    const path = normalize((req.url ?? '/').split('?')[0] ?? '/');
    const file = join(root, path === '/' ? 'index.html' : path);
    // Every answer carries the policy, the worker script's too.
    const headers = { 'content-security-policy': CSP, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      res.writeHead(404, headers).end();
      return;
    }
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  browser = await launchChromium();
  page = await browser.context.newPage();
  // Every violation the page meets, from before its first script runs.
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => (window.violations ??= []).push(e.violatedDirective + ' ' + e.blockedURI));",
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (m) => {
    if (/Content Security Policy|unsafe-eval/i.test(m.text())) violations.push(m.text());
  });
  await open('goto');
});
afterAll(async () => {
  await browser?.close();
  await new Promise((done) => server?.close(done));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a Vite app set up as docs/browser.md says, under Content-Security-Policy: script-src 'self'", () => {
  it('builds, and a production build carries none of the mock or MSW', () => {
    // The one note of the mock build is Vite's about its chunk over 500 kB: MSW's own 430 kB are
    // most of it (docs/browser.md says so); nothing is said of Node built-ins, eval or anything else.
    const notes = (output: string) => output.split('\n').filter((line) => /^\(!\)|warning:|\[warn|eval|node:/i.test(line));
    expect(notes(buildOutput.mocked ?? '')).toEqual(['(!) Some chunks are larger than 500 kB after minification. Consider:']);
    expect(notes(buildOutput.production ?? '')).toEqual([]);
    const production = scripts('dist-prod');
    expect(production).toHaveLength(1);
    // The catalogue's codes and the scenario's name are in the mock's chunk, MSW's worker name in MSW's.
    expect(production[0]?.text).not.toMatch(/rate_limited|tight-quota|mockServiceWorker/);
    expect(scripts('dist-mock').filter((s) => /rate_limited/.test(s.text) && /mockServiceWorker/.test(s.text))).toHaveLength(1);
  });

  it('lists the 50 seeded animals, creates one (201 with Location), and meets the 429 of the tight quota', async () => {
    const list = await call('GET', '/pets?limit=100');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(50);
    expect(list.headers['x-ratelimit-remaining']).toBe('2');
    const created = await call('POST', '/pets', { name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe('/v1/pets/51');
    expect(created.body).toEqual({ id: 51, name: 'Rex', categoryId: 1 });
    expect((await call('GET', '/pets/51')).status).toBe(200);
    const refused = await call('GET', '/pets');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect((refused.body as { code: string }).code).toBe('rate_limited');
  });

  it("runs the docs' console lines on the handler the mocks module puts on globalThis", async () => {
    const consoleBlock = browserDocSnippets().find((s) => s.lang === 'js' && s.first === "in the browser's console");
    const lines = (consoleBlock?.code ?? '').split('\n').filter((l) => l.startsWith('petstore.'));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const results: unknown[] = [];
    for (const line of lines) results.push(await page.evaluate(line.replace(/;\s*\/\/.*$/, '')));
    expect((results[0] as unknown[]).length).toBe(1);
    // Back in the docs' scenario, started afresh: the quota is full again.
    expect((await call('GET', '/pets')).headers['x-ratelimit-remaining']).toBe('2');
  });

  it('starts again on reload: the animal created before is gone and the quota is full', async () => {
    expect((await call('POST', '/pets', { name: 'Tom', categoryId: 2 })).status).toBe(201);
    await open('reload');
    const gone = await call('GET', '/pets/51');
    expect(gone.status).toBe(404);
    expect(gone.headers['x-ratelimit-remaining']).toBe('2');
    expect(await page.evaluate('petstore.requests().length')).toBe(1);
  });

  it('met no Content-Security-Policy violation and no page error', async () => {
    expect(await page.evaluate('window.violations ?? []')).toEqual([]);
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
