// The admin page's snapshot controls in headless Chromium: download the selected session's
// snapshot, upload one into it, by keyboard too; a wrong file shows the refusal and changes nothing.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { T0, call, post } from '../support/mock.js';
import { launchChromium } from './chromium.js';

let mock: RunningMock;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const dir = mkdtempSync(join(tmpdir(), 'admin-snapshot-'));

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  for (const s of [mock, mock.session('qa')]) {
    s.clock.freeze();
    s.clock.set(T0);
  }
  browser = await launchChromium();
  page = await browser.context.newPage();
  // Playwright turns file-chooser interception on when the first listener is added, by a message
  // to the browser that races a key press sent right after; a listener from the start settles it.
  page.on('filechooser', () => undefined);
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

describe('snapshot download and upload on the admin page', () => {
  it('downloads the selected session as a snapshot file', async () => {
    await call(mock, '/v1/pets', { ...post({ name: 'Rex', categoryId: 1 }), headers: { 'content-type': 'application/json', 'x-mock-session': 'qa' } });
    await page.goto(`${mock.origin}/__admin/?session=qa`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#snapshot-download')]);
    expect(download.suggestedFilename()).toBe('petstore-mock-qa.snapshot.json');
    const file = join(dir, 'qa.json');
    await download.saveAs(file);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { session: string; store: { created: unknown[] } };
    expect(doc.session).toBe('qa');
    expect(doc.store.created).toEqual([{ id: 51, name: 'Rex', categoryId: 1 }]);
  });

  it('uploads a snapshot into the selected session, from the keyboard', async () => {
    await call(mock, '/v1/pets', post({ name: 'Tom', categoryId: 2 }));
    const file = join(dir, 'default.json');
    writeFileSync(file, JSON.stringify(mock.snapshot()));
    await page.goto(`${mock.origin}/__admin/?session=qa`);
    // Both buttons are in the tab order, one after the other; Enter opens the file chooser.
    await page.focus('#snapshot-download');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('snapshot-upload');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    await chooser.setFiles(file);
    await expect.poll(() => mock.session('qa').snapshot().store.created).toEqual([{ id: 51, name: 'Tom', categoryId: 2 }]);
    expect(await page.textContent('#message')).toBe('');
  });

  it('shows why a wrong file is refused, and the session stays as it was', async () => {
    const before = JSON.stringify(mock.session('qa').snapshot().store);
    const file = join(dir, 'wrong.json');
    writeFileSync(file, JSON.stringify({ format: 'petstore-mock/snapshot', version: 2 }));
    await page.goto(`${mock.origin}/__admin/?session=qa`);
    await page.setInputFiles('#snapshot-file', file);
    await expect.poll(() => page.textContent('#message')).toContain('the snapshot is version 2, and this petstore-mock reads version 1');
    expect(JSON.stringify(mock.session('qa').snapshot().store)).toBe(before);
  });
});
