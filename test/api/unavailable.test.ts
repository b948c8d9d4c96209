import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { Keypair } from '@stellar/stellar-sdk'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/api/app.ts'
import { generateApiKey } from '../../src/auth/api-key.ts'
import { type DatabaseConfig, loadConfig } from '../../src/config.ts'
import { createContext } from '../../src/context.ts'
import { createLogger } from '../../src/logger.ts'
import { createDatabase } from '../../src/store/db.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { ADMIN_TOKEN } from '../support/app.ts'

/** Requests that each read or write the store on their way, one per kind of route. */
function storeRequests() {
  const json = { 'content-type': 'application/json' }
  return [
    {
      method: 'GET' as const,
      url: `/v1/users/${Keypair.random().publicKey()}/positions/vaultprotocol`,
      headers: { 'x-svc-token': generateApiKey() },
    },
    {
      method: 'POST' as const,
      url: '/v1/org/api-keys',
      headers: { 'x-svc-admin-token': ADMIN_TOKEN, ...json },
      payload: { organization_name: 'Down', organization_slug: 'down-org', key_name: 'k' },
    },
    {
      method: 'POST' as const,
      url: '/v1/auth/signup',
      headers: json,
      payload: {
        organization_name: 'Down',
        organization_slug: 'down-org',
        email: 'down@example.com',
        password: 'correct horse battery staple',
      },
    },
    {
      method: 'POST' as const,
      url: '/v1/auth/login',
      headers: json,
      payload: { email: 'down@example.com', password: 'correct horse battery staple' },
    },
  ]
}

/** Every store-bound route answers 503 `unavailable` in the envelope, as health does. */
async function expectUnavailable(database: DatabaseConfig, breakStore: () => void = () => {}) {
  const config = loadConfig(
    {
      STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      // Given, so start-up does not need the store to read them.
      STRATA_JWT_SECRET: 'j'.repeat(48),
      STRATA_KEY_PEPPER: 'p'.repeat(48),
    },
    { database },
  )
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
  const store = createDatabase(config.database)
  const ctx = await createContext(config, createLogger('info', sink), { database: store })
  const app = await buildApp(ctx)
  try {
    breakStore()
    const health = await app.inject({ method: 'GET', url: '/v1/health' })
    expect(health.statusCode).toBe(503)
    expect(health.json().database).toBe('unreachable')
    for (const request of storeRequests()) {
      const response = await app.inject(request)
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(503)
      expect(response.json().error.code).toBe('unavailable')
      expect(response.json().meta.request_id).toBe(response.headers['x-request-id'])
    }
  } finally {
    await app.close()
    await ctx.close()
    await store.close()
  }
}

describe('an unreachable store answers 503 unavailable on every route', () => {
  it('PostgreSQL refusing connections (a closed port)', async () => {
    await expectUnavailable({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/strata' })
  })

  it('a SQLite file that can no longer be read as a database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-down-'))
    try {
      const path = join(dir, 'strata.db')
      const setup = createDatabase({ kind: 'sqlite', path })
      await migrateToLatest(setup)
      await setup.close()
      await expectUnavailable({ kind: 'sqlite', path }, () => {
        // Replaced under the running app, as by a botched restore: every read now fails.
        for (const side of ['-wal', '-shm']) rmSync(`${path}${side}`, { force: true })
        writeFileSync(path, 'not a database '.repeat(1000))
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
