import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { launchChromium } from './chromium.js';

let mock: RunningMock;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;

beforeAll(async () => {
  // One request a day: the 429's Retry-After is the 12 h to midnight. With one a minute (60 s), a
  // retry the loaded machine delayed by 60-220 ms looked like Retry-After read in milliseconds,
  // and the audit rightly added a retry-after-misread finding.
  mock = await startMock({ port: 0, keys: ['qa-tester-key:free:100:1'] });
  mock.clock.freeze();
  mock.clock.set(T0);
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

/** Waits until the element shows exactly `text` (the panel refreshes once a second). */
async function shows(selector: string, text: string): Promise<void> {
  const deadline = Date.now() + 5000;
  let seen: string | null = null;
  while (Date.now() < deadline) {
    seen = await page.textContent(selector);
    if (seen === text) return;
    await page.waitForTimeout(50);
  }
  // What the mock saw and judged, so that a failure says why the panel differs.
  const findings = mock.audit().findings.map((f) => `${f.rule} ${f.severity} ${f.message}`);
  const seenRequests = mock.requests().map((e) => `#${e.seq} ${e.method} ${e.path}?${e.query} ${e.status} at ${e.at}`);
  throw new Error(
    `${selector} shows ${JSON.stringify(seen)}, not ${JSON.stringify(text)}; findings:\n${findings.join('\n')}\nrequests:\n${seenRequests.join('\n')}`,
  );
}

describe('the client audit panel of the admin page', () => {
  it('says there are no findings, then lists the early retries of a client that ignored Retry-After', async () => {
    await page.goto(`${mock.origin}/__admin/`);
    await shows('#audit-summary', 'no findings');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer qa-tester-key' } });
      await res.body?.cancel();
    }
    await shows('#audit-summary', '1 error, 0 warnings');
    const rows = await page.$$eval('#audit tbody tr', (trs) => trs.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows).toEqual([['early-retry (error)', 'qa-t…key', '#2 #3', mock.audit().findings[0]!.message]]);
    expect(await page.getAttribute('#audit-summary', 'class')).toBe('count s5');
  });
});
