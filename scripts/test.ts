// Runs the whole suite twice: on SQLite (the embedded default) and on the real PostgreSQL.
// Prints one closing line "tests: N passed, N failed" over both runs.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const extra = process.argv.slice(2)
const stores = (process.env.STRATA_TEST_STORES ?? 'sqlite,postgres').split(',')
const outDir = mkdtempSync(join(tmpdir(), 'strata-vitest-'))
let passed = 0
let failed = 0
let exitCode = 0

for (const store of stores) {
  process.stdout.write(`\n=== test suite on ${store} ===\n`)
  const report = join(outDir, `${store}.json`)
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra],
    { stdio: 'inherit', env: { ...process.env, STRATA_TEST_DB: store } },
  )
  if (run.status !== 0) exitCode = 1
  try {
    const result = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number
      numFailedTests: number
    }
    passed += result.numPassedTests
    failed += result.numFailedTests
  } catch {
    exitCode = 1
    process.stdout.write(`no test report for ${store}\n`)
  }
}

if (passed === 0) exitCode = 1
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`)
process.exit(exitCode)
