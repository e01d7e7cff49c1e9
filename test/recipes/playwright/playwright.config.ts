import { defineConfig } from '@playwright/test';

const port = Number(process.env.PETSTORE_PORT ?? 4010);

export default defineConfig({
  testDir: '.',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Debian's chromium; drop launchOptions to use a browser from `npx playwright install`.
    launchOptions: { executablePath: '/usr/bin/chromium' },
  },
  webServer: {
    command: `npx petstore-mock --port ${port} --quiet`,
    url: `http://127.0.0.1:${port}/__admin/health`,
    reuseExistingServer: !process.env.CI,
  },
});
