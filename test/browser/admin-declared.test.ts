// The admin page names the operations the session's scenario declares.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { adminCall } from '../support/admin.js';
import { launchChromium } from './chromium.js';

let mock: RunningMock;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  browser = await launchChromium();
  page = await browser.context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

describe('the admin page and declared operations', () => {
  it('lists the declared operations under the scenario, and nothing for a scenario without them', async () => {
    await page.goto(`${mock.origin}/__admin/`);
    await page.waitForSelector('#live:text("live")');
    expect(await page.textContent('#scenario-operations')).toBe('');
    const scenario = {
      name: 'orders',
      description: 'store orders',
      operations: [{ operationId: 'listOrders', method: 'GET', path: '/v1/store/orders', answers: [{ status: 200, body: [] }] }],
    };
    expect((await adminCall(mock.origin, 'scenario', { method: 'PUT', body: { scenario } })).status).toBe(200);
    await page.waitForSelector('#scenario-operations:text("Declared: GET /v1/store/orders (listOrders)")');
    expect(await page.textContent('#scenario')).toBe('orders');
  });
});
