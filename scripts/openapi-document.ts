/**
 * The OpenAPI document exactly as the application serves it at /v1/openapi.json, built without a
 * server listening: the app is assembled on a throwaway SQLite store (the document depends only on
 * the routes). Shared by the document's lint (scripts/openapi.ts) and the typed client's generator.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { buildApp } from '../src/api/app.ts'
import { loadConfig } from '../src/config.ts'
import { createContext } from '../src/context.ts'
import { createLogger } from '../src/logger.ts'
import { createDatabase } from '../src/store/db.ts'
import { migrateToLatest } from '../src/store/migrate.ts'

export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-openapi-'))
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
    const document = app.swagger() as Record<string, unknown>
    await app.close()
    await ctx.close()
    await database.close()
    return document
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
