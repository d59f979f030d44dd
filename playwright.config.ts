import { register } from 'node:module';
import { defineConfig } from '@playwright/test';

// Team specs set up their database with the app's own migration files (`.sql?raw` imports).
register('./test/e2e/sqlTextLoader.mjs', import.meta.url);

/**
 * End-to-end tests drive the real built renderer (out/renderer) through the local bridge in
 * Debian's Chromium. Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1360, height: 860 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
