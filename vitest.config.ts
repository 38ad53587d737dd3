import { defineConfig } from 'vitest/config'

// Two projects: `unit` (every *.test.ts beside its module, plus the in-process
// real-host tests under tests/host) and `e2e` (the real `dsh` CLI, slow).
// `npm test` runs both; `npm run e2e` runs only the second.
export default defineConfig({
  test: {
    globalSetup: ['tests/harness/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          // Every folder: a room added later is tested without being listed here (recall/ was not, for a while).
          include: ['**/*.test.ts'],
          exclude: ['**/node_modules/**', 'dist/**', '.cache/**', 'tests/e2e/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
})
