import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { launchChromium } from './chromium.js';
import { minuteDay } from '../../src/core/state/windows.js';

// The admin page for everyone: axe-core's checks at a desktop's and a phone's width, the page by
// keyboard alone, its Content-Security-Policy (and nothing it does breaks it), and the chart
// following the traffic until a person picks a key.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let mock: RunningMock;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
/** What the page reported: CSP violations (event and console) and uncaught errors. */
const reported: string[] = [];

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: ['qa-tester-key:free:3:100', 'ci-bot-secret:pro'] });
  mock.clock.freeze();
  mock.clock.set(T0);
  browser = await launchChromium();
  await browser.context.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  page = await browser.context.newPage();
  page.on('console', (m) => {
    if (/content.security.policy|CSP violation/i.test(m.text())) reported.push(m.text());
  });
  page.on('pageerror', (e) => reported.push(`page error: ${e.message}`));
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

async function send(key: string, n = 1): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    await res.body?.cancel();
  }
}

/** Waits until the element shows exactly `text` (the page refreshes twice a second). */
async function shows(selector: string, text: string): Promise<void> {
  const deadline = Date.now() + 5000;
  let seen: string | null = null;
  while (Date.now() < deadline) {
    seen = await page.textContent(selector);
    if (seen === text) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`${selector} shows ${JSON.stringify(seen)}, not ${JSON.stringify(text)}`);
}

interface Chart {
  key: string;
  limits: { lengthMs: number; max: number }[];
}
/** The chart's state after its next drawing (it redraws each second). */
async function nextChart(): Promise<Chart> {
  // Functions, not strings: the page's CSP refuses to evaluate a string.
  await page.evaluate(() => ((globalThis as unknown as { petstoreLimitsChart?: Chart }).petstoreLimitsChart = undefined));
  await page.waitForFunction(() => (globalThis as unknown as { petstoreLimitsChart?: Chart }).petstoreLimitsChart !== undefined, undefined, { timeout: 5000 });
  return (await page.evaluate('window.petstoreLimitsChart')) as Chart;
}
async function chartOn(key: string): Promise<Chart> {
  await page.waitForFunction((k) => (globalThis as unknown as { petstoreLimitsChart?: Chart }).petstoreLimitsChart?.key === k, key, { timeout: 5000 });
  return (await page.evaluate('window.petstoreLimitsChart')) as Chart;
}

/** How the tests name a control: tag#id, or tag#seqN for a journal row's button. */
const NAME = "(el) => el.tagName.toLowerCase() + '#' + (el.id || (el.dataset.seq ? 'seq' + el.dataset.seq : ''))";

/** What the focused element is, and whether its focus shows (an outline, as the page's style sets). */
async function focused(): Promise<{ what: string; outline: string }> {
  return (await page.evaluate(`(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    return { what: (${NAME})(el), outline: style.outlineStyle === 'none' || style.outlineWidth === '0px' ? 'none' : style.outlineWidth + ' ' + style.outlineStyle };
  })()`)) as { what: string; outline: string };
}

describe('the admin page for keyboard and screen-reader users, under its CSP', () => {
  it('is served with a strict Content-Security-Policy that no page may frame; its files need no token', async () => {
    const res = await fetch(`${mock.origin}/__admin/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style>| style="| on[a-z]+="/);
    for (const [path, type] of [
      ['admin.js', 'text/javascript'],
      ['admin.css', 'text/css'],
      ['limits-chart.js', 'text/javascript'],
      ['limits-chart.css', 'text/css'],
    ] as const) {
      const file = await fetch(`${mock.origin}/__admin/${path}`);
      expect({ path, status: file.status, type: file.headers.get('content-type')?.split(';')[0] }).toEqual({ path, status: 200, type });
    }
  });

  it('follows the latest request’s key, --key ones included, until a person picks one; the pick draws its own limits', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${mock.origin}/__admin/`);
    await shows('#live', 'live');
    await send('demo-pro');
    expect((await chartOn('demo-pro')).limits).toEqual(minuteDay(300, 10000));
    await shows('#limits-summary', 'demo-pro: 1 request in 1 minute window; after the latest, 299 of 300 left this minute and 9999 of 10000 today.');
    await send('qa-tester-key');
    expect((await chartOn('qa-t…key')).limits).toEqual(minuteDay(3, 100));
    await send('ci-bot-secret', 2);
    await chartOn('ci-b…ret');
    await shows('#limits-summary', 'ci-b…ret: 2 requests in 1 minute window; after the latest, 298 of 300 left this minute and 9998 of 10000 today.');
    await page.selectOption('#limits-key', { label: 'qa-t…key' });
    expect((await chartOn('qa-t…key')).limits).toEqual(minuteDay(3, 100));
    await send('demo-pro');
    await shows('#request-count', '5 requests');
    const after = await nextChart();
    expect(after.key).toBe('qa-t…key');
    expect(after.limits).toEqual(minuteDay(3, 100));
    await page.selectOption('#limits-key', { label: 'demo-free' });
    expect((await chartOn('demo-free')).limits).toEqual(minuteDay(60, 1000));
    await shows('#limits-summary', 'demo-free: no requests in the journal yet.');
  });

  it('works by keyboard alone: Tab reaches every control with a visible focus, Enter opens a request and Escape closes it', async () => {
    await page.goto(`${mock.origin}/__admin/`);
    await shows('#request-count', '5 requests');
    const controls = (await page.evaluate(
      `[...document.querySelectorAll('a[href], button, input, select')].filter((el) => el.offsetParent !== null).map(${NAME})`,
    )) as string[];
    expect(controls).toContain('button#seq5');
    const reached: { what: string; outline: string }[] = [];
    for (let i = 0; i < controls.length; i++) {
      await page.keyboard.press('Tab');
      reached.push(await focused());
    }
    expect(reached.map((r) => r.what)).toEqual(controls);
    expect(reached.filter((r) => r.outline === 'none')).toEqual([]);

    await page.focus('button[data-seq="5"]');
    await page.keyboard.press('Enter');
    await page.locator('#requests tr.details').waitFor({ timeout: 5000 });
    expect(await page.getAttribute('button[data-seq="5"]', 'aria-expanded')).toBe('true');
    // The table is drawn anew twice a second: the focus stays on the row's button.
    await shows('#live', 'live');
    expect((await focused()).what).toBe('button#seq5');
    await page.keyboard.press('Escape');
    await page.locator('#requests tr.details').waitFor({ state: 'detached', timeout: 5000 });
    expect((await focused()).what).toBe('button#seq5');
    expect(await page.getAttribute('button[data-seq="5"]', 'aria-expanded')).toBe('false');

    // Download HAR by keyboard, under the CSP (a blob: link the page makes and follows).
    await page.focus('#har-download');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('petstore-mock-default.har');
  });

  it('Enter in a clock field does what its button does', async () => {
    await page.fill('#advance-by', '2m');
    await page.focus('#advance-by');
    await page.keyboard.press('Enter');
    await shows('#clock', '2026-03-10 12:02:00Z');
    await page.fill('#set-to', '2030-12-05T00:00:00Z');
    await page.focus('#set-to');
    await page.keyboard.press('Enter');
    await shows('#clock', '2030-12-05 00:00:00Z');
    expect(mock.clock.now().toISOString()).toBe('2030-12-05T00:00:00.000Z');
  });

  it.each([1280, 390])('axe-core finds no serious or critical violation at %i px, a request open', async (width) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${mock.origin}/__admin/`);
    await shows('#request-count', '5 requests');
    await page.waitForSelector('#limits-chart canvas');
    await page.click('button[data-seq="1"]');
    await page.locator('#requests tr.details').waitFor({ timeout: 5000 });
    await page.evaluate(axeSource);
    const { passes, violations } = (await page.evaluate(
      "axe.run(document).then((r) => ({ passes: r.passes.map((p) => p.id), violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })) }))",
    )) as { passes: string[]; violations: { id: string; impact: string; nodes: string[] }[] };
    // The rules that once failed here ran and passed: the chart's name, contrast, labels.
    expect(passes).toEqual(expect.arrayContaining(['role-img-alt', 'color-contrast', 'label', 'button-name']));
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it('reported no CSP violation and no script error while all of the above ran', () => {
    expect(reported).toEqual([]);
  });
});
