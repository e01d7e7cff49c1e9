import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type Har } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { launchChromium } from './chromium.js';

// QA's path: record a session in the browser, export it as HAR from the admin API, and replay it
// with Playwright's routeFromHAR while the mock is stopped: the page gets the same answers.
const dir = mkdtempSync(join(tmpdir(), 'petstore-har-'));
let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
  remaining: string | null;
  retryAfter: string | null;
  deprecation: string | null;
}

/** What the app does: list, create, fetch one, and page until the key's 3 a minute run out. */
function session(page: Page, api: string): Promise<Answer[]> {
  return page.evaluate(async (base) => {
    const headers = { Authorization: 'Bearer qa-har-key' };
    const calls: [string, RequestInit][] = [
      ['/pets?limit=2', { headers }],
      ['/pets', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"name":"Rex","categoryId":3}' }],
      ['/pets/1', { headers }],
      ['/pets?limit=3', { headers }],
    ];
    const answers = [];
    for (const [path, init] of calls) {
      const res = await fetch(base + path, init);
      answers.push({
        status: res.status,
        body: await res.text(),
        remaining: res.headers.get('x-ratelimit-remaining'),
        retryAfter: res.headers.get('retry-after'),
        deprecation: res.headers.get('deprecation'),
      });
    }
    return answers;
  }, api);
}

/**
 * A page of the app under test, served by Playwright itself beside the API (Chromium keeps a page
 * from another address space away from loopback), so it loads with the mock stopped as well.
 */
async function appPage(origin: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const page = await browser.context.newPage();
  await page.route(`${origin}/app`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }));
  await page.goto(`${origin}/app`);
  return page;
}

describe('a HAR of a session, replayed in Chromium with routeFromHAR', () => {
  it('records a session, exports it, and replays the same answers with the mock stopped', async () => {
    const mock = await startMock({ port: 0, keys: ['qa-har-key:free:3:100'] });
    mock.clock.freeze();
    mock.clock.set(T0);
    mock.recordDetails();
    browser = await launchChromium();
    let recorded: Answer[];
    const file = join(dir, 'session.har');
    try {
      recorded = await session(await appPage(mock.origin), mock.url);
      // Exported as QA would: the admin page's "Download HAR" button, the journal filtered to the API.
      const admin = await appPage(mock.origin).then(async (p) => {
        await p.goto(`${mock.origin}/__admin/`);
        return p;
      });
      await admin.fill('#f-path', '/v1/*');
      await admin.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector('#request-count')
            ?.textContent === '4 requests match',
      );
      const [download] = await Promise.all([admin.waitForEvent('download'), admin.click('#har-download')]);
      expect(download.suggestedFilename()).toBe('petstore-mock-default.har');
      await download.saveAs(file);
      const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
      expect(har.log.entries.map((e) => `${e.request.method} ${e.request.url.slice(mock.origin.length)} ${e.response.status}`)).toEqual([
        'GET /v1/pets?limit=2 200',
        'POST /v1/pets 201',
        'GET /v1/pets/1 200',
        'GET /v1/pets?limit=3 429',
      ]);
    } finally {
      await mock.close();
    }
    expect(recorded.map((a) => a.status)).toEqual([200, 201, 200, 429]);
    expect(recorded[3]?.retryAfter).toBe('60');
    expect(recorded[2]?.deprecation).toMatch(/^@\d+$/);

    const page = await appPage(mock.origin);
    await page.routeFromHAR(file, { url: `${mock.url}/**`, notFound: 'abort' });
    expect(await session(page, mock.url)).toEqual(recorded);
  }, 60_000);
});
