import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { T0 } from '../support/mock.js';
import { launchChromium } from './chromium.js';

// The admin page's chart of a key's limits, in headless Chromium at a phone's width: its data
// is asserted against the journal, and a screenshot is taken (SCREENSHOT_DIR keeps it to look at).
let mock: RunningMock;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'petstore-chart-'));

beforeAll(async () => {
  mock = await startMock({ port: 0, scenario: 'ban' });
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
  if (!process.env.SCREENSHOT_DIR) rmSync(shots, { recursive: true, force: true });
});

async function get(): Promise<number> {
  const res = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer demo-free' } });
  await res.body?.cancel();
  return res.status;
}

interface ChartState {
  key: string;
  timeline: { points: { seq: number; kind: string; left: number[]; at: number }[]; windows: { left: number; used: number }[] };
  data: (number | null)[][];
}

describe('the chart of a key’s limits on the admin page, 390 px wide', () => {
  it('draws the requests of the ban walk-through on the session clock: 2xx, 429, counted refusals, the ban, and the quota left', async () => {
    mock.clock.freeze();
    mock.clock.set(T0);
    const statuses: number[] = [];
    // 5 a minute: a request every 5 s, then refusals 2 s apart until the ban (the first 8 refusals
    // of a wait are taken as in flight, the 4th counted one bans), then past it.
    for (let i = 0; i < 6; i++) {
      statuses.push(await get());
      mock.clock.advance('5s');
    }
    for (let i = 0; i < 13; i++) {
      statuses.push(await get());
      mock.clock.advance('2s');
    }
    mock.clock.advance('3m');
    statuses.push(await get());
    expect(statuses).toEqual([...Array<number>(5).fill(200), ...Array<number>(14).fill(429), 200]);

    await page.goto(`${mock.origin}/__admin/`);
    await page.waitForFunction(() => (globalThis as unknown as { petstoreLimitsChart?: ChartState }).petstoreLimitsChart?.timeline.points.length === 20);
    await page.waitForSelector('#limits-chart canvas');
    const state = (await page.evaluate(() => (globalThis as unknown as { petstoreLimitsChart: ChartState }).petstoreLimitsChart)) as ChartState;
    expect(state.key).toBe('demo-free');
    // The kinds follow the journal: a rate_limited refusal is "counted" when its entry says so.
    const journal = mock.requests() as (ReturnType<RunningMock['requests']>[number] & { ban?: { counted: boolean } })[];
    const expected = journal.map((e) => (e.code === 'key_banned' ? 'banned' : e.code === 'rate_limited' ? (e.ban?.counted ? 'counted' : 'refused') : 'ok'));
    expect(state.timeline.points.map((p) => p.kind)).toEqual(expected);
    expect(expected.filter((k) => k === 'banned').length).toBeGreaterThan(0);
    expect(state.timeline.points.map((p) => p.left[0])).toEqual([4, 3, 2, 1, 0, ...Array<number>(14).fill(0), 4]);
    expect(state.timeline.points.map((p) => p.at)).toEqual(journal.map((e) => Date.parse(e.at)));
    // uPlot's columns: x in seconds on the session clock, the quota line, one series per lane.
    // The minute's end between the last refusal and the next request shows the quota refilled.
    const times = journal.map((e) => Date.parse(e.at) / 1000);
    expect(state.data[0]).toEqual([...times.slice(0, 19), (T0 + 60_000) / 1000, times[19]]);
    expect(state.data[1]).toEqual([4, 3, 2, 1, 0, ...Array<number>(14).fill(0), 5, 4]);
    expect(state.data[2 + 4]?.map((lane) => lane !== null)).toEqual(expected.map((k) => k === 'ok').toSpliced(19, 0, false));
    expect(await page.textContent('#limits-summary')).toBe(
      'demo-free: 20 requests in 2 minute windows; after the latest, 4 of 5 left this minute and 94 of 100 today.',
    );

    // Readable on a phone: the chart fits the width and nothing scrolls sideways.
    const box = await page.locator('#limits-chart canvas').boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    const shot = await page.locator('#limits-chart').screenshot({ path: join(shots, 'limits-chart-390.png') });
    expect(shot.length).toBeGreaterThan(5000);
  }, 60_000);
});
