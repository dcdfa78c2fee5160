import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { portFromEnv } from './scripts/ports';

/**
 * The ui project's portal listens here, and jsdom's page is on the same origin, as the SPA is when the
 * portal serves it (the browser's same-origin rule applies to jsdom's XMLHttpRequest too). UI_PORT, or
 * a free port chosen at run time and kept in UI_PORT for the rest of the run (scripts/ports.ts).
 */
export const UI_PORT = portFromEnv('UI_PORT');

/**
 * Three projects: pure logic (machines, contract, charts), the API over HTTP against a real database,
 * and components in jsdom. The browser suite (tests/e2e) is Playwright's, never vitest's.
 */
export default defineConfig({
  test: {
    // Two files at once even on a 2-core machine (vitest's default there is one): the API files wait on
    // their database and HTTP as much as they compute; measured: the API suite in 238 s instead of 330 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/machines/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // The run's name, under which the living demo is seeded once and copied by each file.
          globalSetup: ['tests/api/templates.setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.tsx'],
          environment: 'jsdom',
          environmentOptions: { jsdom: { url: `http://127.0.0.1:${UI_PORT}/` } },
          setupFiles: ['tests/ui/setup.ts'],
          globalSetup: ['tests/ui/portal.setup.ts'],
          // Typing a whole form key by key through React in jsdom takes seconds.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
