// Runs the suite on SQLite (the embedded default), then again on the real PostgreSQL: there, only
// the test files that can reach a store, since the others would run the same code twice.
// Prints one closing line "tests: N passed, N failed" over both runs.
import { spawnSync } from 'node:child_process'
import { existsSync, globSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

// `--quick` (npm run test:quick): the contributor's loop, SQLite only and without the slow
// end-to-end files below, which `npm test` and CI still run.
const quick = process.argv.includes('--quick')
const extra = process.argv.slice(2).filter((arg) => arg !== '--quick')
const stores = quick ? ['sqlite'] : (process.env.STRATA_TEST_STORES ?? 'sqlite,postgres').split(',')

/**
 * The files `--quick` leaves out: each starts real processes or whole devnets and waits on them
 * (start-up and shutdown, crash and restart, the fresh-clone install), together about half of the
 * SQLite pass's time, and each covers a path the rest of the suite does not change often.
 */
const SLOW_FILES = [
  'test/front-door.test.ts',
  'test/startup.test.ts',
  'test/indexer/crash-restart.test.ts',
  'test/indexer/devnet-faults.test.ts',
  'test/log-format.test.ts',
  'test/demo-banner.test.ts',
  'test/cli-errors.test.ts',
  'test/cli-org.test.ts',
  'test/cli.test.ts',
]
/**
 * Files that reach a store through their imports but whose outcome cannot depend on which store it
 * is, so the PostgreSQL pass leaves them out (together about two minutes of it):
 * - the fresh-clone test runs the clone's own `npm start` and test command on their default store
 *   (it removes STRATA_TEST_DB from their environment);
 * - the client generator's test compares files generated from the OpenAPI document, which the
 *   routes' schemas make, not the store;
 * - the reference page's browser test checks the page, its assets and its headers, none of which
 *   reads the store.
 */
const ONE_STORE_FILES = [
  'test/front-door.test.ts',
  'clients/typescript/test/generate.test.ts',
  'test/api/reference-page.test.ts',
]
const startedAt = performance.now()
const outDir = mkdtempSync(join(tmpdir(), 'strata-vitest-'))
let passed = 0
let failed = 0
let skipped = 0
let exitCode = 0
/** Each failed test, named with its file and its error's first lines: printed again at the very end. */
const failures: string[] = []

/** Where the store is chosen or opened: a file importing one of these, or reading the choice, reaches it. */
const STORE_ENTRY = [resolve('test/support/database.ts'), resolve('src/store/db.ts')]
const STORE_CHOICE = /STRATA_TEST_DB|TEST_DB_KIND/

/** Whether a file reaches the store through its relative imports (type-only imports count too). */
function reachesStore(file: string, seen = new Set<string>()): boolean {
  if (STORE_ENTRY.includes(file)) return true
  if (seen.has(file)) return false
  seen.add(file)
  const source = readFileSync(file, 'utf8')
  if (STORE_CHOICE.test(source)) return true
  for (const match of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const target = resolve(dirname(file), match[1]!)
    if (existsSync(target) && reachesStore(target, seen)) return true
  }
  return false
}

function storeFiles(): string[] {
  const all = [
    ...globSync('test/**/*.test.ts'),
    ...globSync('src/**/*.test.ts'),
    ...globSync('clients/*/test/**/*.test.ts'),
  ].sort()
  return all.filter((file) => !ONE_STORE_FILES.includes(file) && reachesStore(resolve(file)))
}

for (const store of stores) {
  // Files named on the command line run as named, on every store.
  const files = store === 'sqlite' || extra.length > 0 ? [] : storeFiles()
  const scope = files.length === 0 ? 'every test file' : `${files.length} test files that reach a store`
  process.stdout.write(`\n=== test suite on ${store}: ${scope} ===\n`)
  const report = join(outDir, `${store}.json`)
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...(quick ? SLOW_FILES.flatMap((file) => ['--exclude', file]) : []),
      ...extra,
      ...files,
    ],
    {
      stdio: 'inherit',
      // Both passes run files side by side: each PostgreSQL file has its own schema, and the
      // migrations read only theirs (src/store/pg-introspector.ts), so one file dropping its schema
      // cannot fail another's migration.
      env: { ...process.env, STRATA_TEST_DB: store },
    },
  )
  if (run.status !== 0) exitCode = 1
  try {
    const result = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number
      numFailedTests: number
      numPendingTests: number
      numTodoTests: number
      testResults: {
        name: string
        message?: string
        assertionResults: { status: string; fullName: string; failureMessages: string[] }[]
      }[]
    }
    passed += result.numPassedTests
    failed += result.numFailedTests
    // A skipped test is said, not hidden: each skips on purpose (a store it does not apply to, a
    // tool this machine lacks) and says why in its own title or output.
    skipped += result.numPendingTests + result.numTodoTests
    for (const file of result.testResults) {
      const where = `${store}: ${file.name.replace(`${process.cwd()}/`, '')}`
      const failedTests = file.assertionResults.filter((test) => test.status === 'failed')
      for (const test of failedTests) {
        failures.push(`${where} > ${test.fullName}\n${firstLines(test.failureMessages.join('\n'))}`)
      }
      // A file that failed before any test ran (an import, a hook) has its message on the file.
      if (failedTests.length === 0 && file.message) failures.push(`${where}\n${firstLines(file.message)}`)
    }
  } catch {
    exitCode = 1
    process.stdout.write(`no test report for ${store}\n`)
  }
}

/** The first lines of an error, indented: enough to name it where only the log's end is kept. */
function firstLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.includes('node_modules'))
    .slice(0, 12)
    .map((line) => `    ${line}`)
    .join('\n')
}

if (passed === 0) exitCode = 1
// The closing lines name every failure, so a log cut to its end still says what failed and why.
if (failures.length > 0)
  process.stdout.write(`\nfailed:\n${failures.map((entry) => `  ${entry}`).join('\n')}\n`)
process.stdout.write(
  `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped (${stores.join(' and ')}${quick ? ', quick: without the slow end-to-end files' : ''}) in ${Math.round((performance.now() - startedAt) / 1000)} s\n`,
)
process.exit(exitCode)
