import { defineConfig } from 'vitest/config'

// The fault-injection suite (npm run test:faults): outages, hangs, locks, full disks and signals,
// each proved against the real services. Its files end in `.fault.ts`, so the main suite skips them.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.fault.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Faults freeze shared services and measure time: one file at a time.
    fileParallelism: false,
  },
})
