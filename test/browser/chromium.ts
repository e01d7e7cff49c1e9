import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium; `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';

// Headless and quiet: no sandbox (CI runs as root), and none of the background traffic a closed
// network refuses.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium abandons a page load when the machine's network interfaces change (net::ERR_NETWORK_CHANGED),
 * and the partition tests add and remove links and namespaces beside the browser tests: a load
 * abandoned for that is made again, as a person would reload. Every other failure stands.
 */
function reloadOnNetworkChange(page: Page): void {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await goto(url, options);
      } catch (error) {
        if (attempt === 3 || !String(error).includes('net::ERR_NETWORK_CHANGED')) throw error;
      }
    }
  };
}

/** Launches headless Debian chromium with a fresh profile; `close` also removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM))
    throw new Error(`petstore-mock tests: the browser tests need Debian's chromium at ${CHROMIUM}; install it with apt-get install -y chromium.`);
  const profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  for (const page of context.pages()) reloadOnNetworkChange(page);
  context.on('page', reloadOnNetworkChange);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
