import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { launchChromium } from './chromium.js';
import { at } from '../support/checked.js';

let mock: RunningMock;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;

beforeAll(async () => {
  mock = await startMock({ port: 0, keys: ['qa-tester-key:free:3:100'] });
  mock.clock.freeze();
  mock.clock.set(T0);
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

async function send(n: number, key = 'qa-tester-key'): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    await res.body?.cancel();
    statuses.push(res.status);
  }
  return statuses;
}

/** Waits until the element of `target` shows exactly `text` (the page refreshes twice a second). */
async function shows(selector: string, text: string, target: Page = page): Promise<void> {
  const deadline = Date.now() + 5000;
  let seen: string | null = null;
  while (Date.now() < deadline) {
    seen = await target.textContent(selector);
    if (seen === text) return;
    await target.waitForTimeout(50);
  }
  throw new Error(`${selector} shows ${JSON.stringify(seen)}, not ${JSON.stringify(text)}`);
}

/** The text of each cell of the table's rows. */
function table(id: string): Promise<string[][]> {
  return page.$$eval(`#${id} tbody tr`, (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

// The page shows a key given with --key redacted, as the banner and the journal do.
const qaRow = async (): Promise<string[] | undefined> => (await table('keys')).find((r) => r[0] === 'qa-t…key');

/**
 * Waits until the key's row shows `cells` from column `from`. A refresh of the page reads the keys
 * before the journal, so a request landing between the two shows in the count first: the row is
 * waited for on its own, not read once the count shows.
 */
async function keyShows(from: number, ...cells: string[]): Promise<void> {
  const deadline = Date.now() + 5000;
  let seen: string[] | undefined;
  while (Date.now() < deadline) {
    seen = (await qaRow())?.slice(from, from + cells.length);
    if (JSON.stringify(seen) === JSON.stringify(cells)) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`the key's row shows ${JSON.stringify(seen)} from column ${from}, not ${JSON.stringify(cells)}`);
}

describe('the admin page in headless Chromium', () => {
  it('shows the scenario, the frozen clock and every key with its quota', async () => {
    await page.goto(`${mock.origin}/__admin/`);
    await shows('#live', 'live');
    expect(await page.textContent('#scenario')).toBe('default');
    expect(await page.textContent('#clock')).toBe('2026-03-10 12:00:00Z');
    expect(await page.textContent('#clock-mode')).toBe('frozen');
    expect((await table('keys')).map((r) => r[0])).toEqual(['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise', 'qa-t…key']);
    expect(await qaRow()).toEqual(['qa-t…key', 'free', '3/min, 100/day', '3 of 3', '2026-03-10 12:01:00Z', 'ok']);
    expect(await page.textContent('#request-count')).toBe('0 requests');
  });

  it('grows the journal and lowers the quota as API requests arrive', async () => {
    expect(await send(2)).toEqual([200, 200]);
    await shows('#request-count', '2 requests');
    await keyShows(3, '1 of 3');
    expect(await send(2)).toEqual([200, 429]);
    await shows('#request-count', '4 requests');
    const rows = await table('requests');
    expect(at(rows, 0).slice(0, 5)).toEqual(['4', '2026-03-10 12:00:00Z', 'GET /v1/pets?limit=1', '429', 'qa-t…key']);
    expect(at(rows, 0)[5]).toMatch(/^rate_limited: The per-minute rate limit of 3 requests is used up/);
    expect(rows.map((r) => r[3])).toEqual(['429', '200', '200', '200']);
    await keyShows(3, '0 of 3');
  });

  it('shows a ban, and the clock advanced from the page lifts it', async () => {
    // Past the 8 refusals of the wait taken for requests in flight, more than ten ban the key.
    mock.clock.advance('2s');
    await send(18);
    await shows('#request-count', '22 requests');
    await keyShows(5, 'banned until 2026-03-10 12:05:02Z');
    await page.fill('#advance-by', '5m');
    await page.click('#advance');
    await shows('#clock', '2026-03-10 12:05:02Z');
    expect(mock.clock.now().toISOString()).toBe('2026-03-10T12:05:02.000Z');
    await keyShows(3, '3 of 3', '2026-03-10 12:06:00Z', 'ok');
    expect(await send(1)).toEqual([200]);
  });

  it('sets the clock from the page and says what is wrong with a bad duration', async () => {
    await page.fill('#set-to', '2030-12-05T00:00:00Z');
    await page.click('#set');
    await shows('#clock', '2030-12-05 00:00:00Z');
    const res = await fetch(`${mock.url}/pets/1`, { headers: { authorization: 'Bearer demo-free' } });
    expect(res.status).toBe(410);
    await page.fill('#advance-by', 'soon');
    await page.click('#advance');
    await page.locator('#message', { hasText: '"advance" must be a duration' }).waitFor({ timeout: 5000 });
  });

  it('switches the scenario from the page, which starts the session afresh', async () => {
    expect(await page.inputValue('#scenarios')).toBe('default');
    await page.selectOption('#scenarios', 'removal-eve');
    await page.click('#switch');
    await shows('#scenario', 'removal-eve');
    await shows('#request-count', '0 requests');
    expect(await page.textContent('#clock')).toBe('2030-12-04 23:59:00Z');
    expect(mock.requests()).toEqual([]);
    await keyShows(3, '3 of 3');
    await page.selectOption('#scenarios', 'revoked-key');
    await page.click('#switch');
    await shows('#scenario', 'revoked-key');
    expect(await page.textContent('#clock-mode')).toBe('running');
    expect(mock.clock.state().frozen).toBe(false);
    expect((await table('keys')).find((r) => r[0] === 'demo-free')?.[5]).toBe('revoked');
    await page.reload();
    await shows('#live', 'live');
    expect(await page.inputValue('#scenarios')).toBe('revoked-key');
  });

  it('watches one X-Mock-Session world with ?session=', async () => {
    const other = await browser.context.newPage();
    try {
      await other.goto(`${mock.origin}/__admin/?session=qa-run-1`);
      const res = await fetch(`${mock.url}/pets?limit=2`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'qa-run-1' } });
      expect(res.status).toBe(200);
      await shows('#request-count', '1 request', other);
      expect(await other.textContent('#session-label')).toBe('session qa-run-1');
      expect(mock.requests()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('with --admin-token the page asks for the token, then works; ?token= opens it at once', async () => {
    const locked = await startMock({ port: 0, adminToken: 'qa-s3cret' });
    const other = await browser.context.newPage();
    try {
      await other.goto(`${locked.origin}/__admin/`);
      await other.waitForSelector('#token-form:not([hidden])');
      await other.fill('#token', 'qa-s3cret');
      await other.click('#token-form button');
      await shows('#live', 'live', other);
      expect(await other.isHidden('#token-form')).toBe(true);
      expect(await other.textContent('#scenario')).toBe('default');
      const direct = await browser.context.newPage();
      try {
        await direct.goto(`${locked.origin}/__admin/?token=qa-s3cret`);
        await shows('#live', 'live', direct);
        expect(await direct.isHidden('#token-form')).toBe(true);
      } finally {
        await direct.close();
      }
    } finally {
      await other.close();
      await locked.close();
    }
  });

  it('looking at a session with ?session= does not create it', async () => {
    const other = await browser.context.newPage();
    try {
      await other.goto(`${mock.origin}/__admin/?session=only-watching`);
      await shows('#live', 'live', other);
      await shows('#request-count', '0 requests', other);
      expect(mock.engine.sessions.all().map((w) => w.id)).not.toContain('only-watching');
    } finally {
      await other.close();
    }
  });

  it('picks a session from the sessions list, and the URL follows', async () => {
    await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro', 'x-mock-session': 'picked-one' } }).then((r) => r.body?.cancel());
    await page.goto(`${mock.origin}/__admin/`);
    await shows('#live', 'live');
    await page.locator('#session option[value="picked-one"]').waitFor({ state: 'attached', timeout: 5000 });
    await page.selectOption('#session', 'picked-one');
    await shows('#session-label', 'session picked-one');
    await shows('#request-count', '1 request');
    expect(new URL(page.url()).searchParams.get('session')).toBe('picked-one');
    expect(at(await table('requests'), 0).slice(2, 4)).toEqual(['GET /v1/pets?limit=1', '200']);
    await page.selectOption('#session', 'default');
    await shows('#session-label', '');
    expect(new URL(page.url()).searchParams.get('session')).toBeNull();
  });

  it("filters the journal and shows a request's recorded headers and bodies", async () => {
    mock.useScenario('default');
    mock.clock.freeze();
    mock.clock.set(T0);
    await page.goto(`${mock.origin}/__admin/`);
    await shows('#live', 'live');
    await page.check('#record');
    await page.waitForFunction("document.getElementById('record').checked");
    await shows('#live', 'live');
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-free', 'content-type': 'application/json' },
      body: '{"name":"Pixel","categoryId":4}',
    });
    expect(created.status).toBe(201);
    await send(2, 'demo-free');
    await shows('#request-count', '3 requests');
    await page.selectOption('#f-method', 'POST');
    await shows('#request-count', '1 request match');
    await page.fill('#f-status', '4');
    await page.locator('#filter-message', { hasText: 'status must be a status such as 429' }).waitFor({ timeout: 5000 });
    await page.fill('#f-status', '2xx');
    await shows('#request-count', '1 request match');
    await page.click('#requests tbody tr.entry');
    const details = page.locator('#requests tr.details');
    await details.waitFor({ timeout: 5000 });
    const text = (await details.textContent()) ?? '';
    expect(text).toContain('authorization: Bearer demo…ree');
    expect(text).toContain('{"name":"Pixel","categoryId":4}');
    expect(text).toContain('Location: /v1/pets/');
    expect(text).not.toContain('demo-free');
    await page.click('#f-clear');
    await shows('#request-count', '3 requests');
  });

  it('fits a 390 px wide phone screen without scrolling sideways', async () => {
    const phone = await browser.context.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${mock.origin}/__admin/`);
      await shows('#live', 'live', phone);
      await shows('#request-count', '3 requests', phone);
      await phone.click('#requests tbody tr.entry');
      await phone.locator('#requests tr.details').waitFor({ timeout: 5000 });
      const widths = (await phone.evaluate('({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth })')) as {
        page: number;
        body: number;
        view: number;
      };
      expect(widths.view).toBe(390);
      expect(widths.page).toBeLessThanOrEqual(390);
      expect(widths.body).toBeLessThanOrEqual(390);
      // Every element stays within the screen: nothing is cut off on the right either.
      const overflowing = await phone.evaluate(
        "[...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5).map((el) => el.tagName + '#' + el.id)",
      );
      expect(overflowing).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
