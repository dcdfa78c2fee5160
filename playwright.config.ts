import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { portFromEnv } from './scripts/ports';

/**
 * The browser suite: `npm start` on a fresh data directory, driven in Debian's Chromium. E2E_PORT, or a
 * free port chosen at run time: this file is evaluated by the runner and again by each worker, so the
 * first choice is kept in E2E_PORT, which the workers inherit (scripts/ports.ts).
 */
export const E2E_PORT = portFromEnv('E2E_PORT');
export const E2E_DATA_DIR = path.join(os.tmpdir(), `portal-e2e-${E2E_PORT}`);

/** Headless Chromium as root on a machine with no outside network (also the slow-3G bench's). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && npm start`,
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      QUIET: '1',
      // As behind one load balancer: each sign-in of the suite says its own address (tests/e2e/support.ts).
      TRUST_PROXY: '1',
    },
  },
});
