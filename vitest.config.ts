import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'clients/typescript/test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file makes its own database; files may run side by side.
    fileParallelism: true,
    // Vitest's default is one worker fewer than the cores: on a 2-core machine one file at a time,
    // while most files wait on child processes, sockets and PostgreSQL rather than compute.
    // STRATA_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.STRATA_TEST_WORKERS) || Math.max(2, availableParallelism()),
  },
})
