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
          include: [
            '{i18n,durable,memory,whale,worldbook,prompt,rails,panel,siyuan,guard,night,runtime,host,modes,cli,bench,scripts,persona-ab,tests}/**/*.test.ts',
          ],
          exclude: ['node_modules/**', 'dist/**', 'tests/e2e/**'],
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
