/**
 * Writes the OpenAPI document as the application generates it (no server listens), then lints it
 * with Redocly's recommended rules, warnings counted as errors (recommended-strict): `npm run lint:openapi [-- <output path>]`. The app is built
 * on a throwaway SQLite store; the document depends only on the routes.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { buildApp } from '../src/api/app.ts'
import { loadConfig } from '../src/config.ts'
import { createContext } from '../src/context.ts'
import { createLogger } from '../src/logger.ts'
import { createDatabase } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'

const dir = mkdtempSync(join(tmpdir(), 'strata-openapi-'))
const output = process.argv[2] ?? join(dir, 'openapi.json')
try {
  const path = join(dir, 'strata.db')
  const config = loadConfig(
    { DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'error', STRATA_ADMIN_TOKEN: 'openapi-lint-admin-token' },
    { database: { kind: 'sqlite', path } },
  )
  const database = createDatabase(config.database)
  await migrateToLatest(database)
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
  const ctx = await createContext(config, createLogger('error', quiet), { database })
  const app = await buildApp(ctx)
  writeFileSync(output, `${JSON.stringify(app.swagger(), null, 2)}\n`)
  await app.close()
  await ctx.close()
  await database.close()
  const lint = spawnSync(
    'npx',
    ['redocly', 'lint', '--extends=recommended-strict', '--format=stylish', output],
    { stdio: 'inherit' },
  )
  process.exitCode = lint.status ?? 1
} finally {
  if (process.argv[2] === undefined) rmSync(dir, { recursive: true, force: true })
}
