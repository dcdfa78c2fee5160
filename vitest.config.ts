import { defineConfig } from 'vitest/config';

/**
 * Three projects: pure logic (machines, contract, charts), the API over HTTP against a real database,
 * and components in jsdom. The browser suite (tests/e2e) is Playwright's, never vitest's.
 */
export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/ui/setup.ts'],
          globalSetup: ['tests/ui/portal.setup.ts'],
        },
      },
    ],
  },
});
