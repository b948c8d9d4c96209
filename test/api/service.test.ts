import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/api/app.ts'
import { generateApiKey } from '../../src/auth/api-key.ts'
import { loadConfig } from '../../src/config.ts'
import { createContext } from '../../src/context.ts'
import { ERROR_STATUS } from '../../src/errors.ts'
import { createLogger } from '../../src/logger.ts'
import { createDatabase } from '../../src/store/db.ts'
import { ADMIN_TOKEN, createTestApp, seedCheckpoint, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKeyFor, signUp } from '../support/factories.ts'

describe('service surface', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'trace' })
  })
  afterAll(async () => t.close())

  it('reports health with the indexer checkpoint and its staleness', async () => {
    const empty = await t.app.inject({ method: 'GET', url: '/v1/health' })
    expect(empty.statusCode).toBe(200)
    expect(empty.json()).toMatchObject({
      status: 'ok',
      database: 'ok',
      indexer: { first_indexed_ledger: null, last_indexed_ledger: null, data_staleness_seconds: null },
    })
    await seedCheckpoint(t, 1234, 42)
    const health = await t.app.inject({ method: 'GET', url: '/v1/health' })
    expect(health.json().indexer).toEqual({
      first_indexed_ledger: 1234,
      last_indexed_ledger: 1234,
      data_staleness_seconds: 42,
      state: null,
      max_lag_seconds: 300,
    })
  })

  it('never writes a secret to the logs', async () => {
    const user = await signUp(t.app)
    const key = await createKeyFor(t.app, user)
    await t.app.inject({
      method: 'GET',
      url: '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol',
      headers: apiKey(key.key),
    })
    await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })
    await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: { email: user.email, password: user.password },
    })
    await t.app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: { 'content-type': 'application/json' },
      payload: { refresh_token: user.refresh_token },
    })
    // A rejected request is logged too; its credential must not be.
    await t.app.inject({ method: 'GET', url: '/v1/org', headers: { 'x-svc-token': key.key } })
    t.ctx.logger.info(
      { req: { headers: { 'x-svc-token': key.key, authorization: `Bearer ${user.access_token}` } } },
      'probe',
    )
    const logs = t.logs.join('')
    expect(t.logs.length).toBeGreaterThan(5)
    expect(logs).toContain('[redacted]')
    for (const secret of [key.key, user.password, user.access_token, user.refresh_token, ADMIN_TOKEN]) {
      expect(logs).not.toContain(secret)
    }
  })

  it('publishes an OpenAPI 3.1 document whose error responses come from the code table', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })
    expect(response.statusCode).toBe(200)
    const doc = response.json()
    expect(doc.openapi).toBe('3.1.0')
    for (const path of [
      '/v1/auth/signup',
      '/v1/auth/login',
      '/v1/auth/refresh',
      '/v1/auth/logout',
      '/v1/org',
      '/v1/org/billing',
      '/v1/org/api-keys',
      '/v1/org/api-keys/{id}',
      '/v1/health',
      '/v1/users/{address}/positions/vaultprotocol',
    ]) {
      expect(doc.paths[path], path).toBeDefined()
    }
    const revoke = doc.paths['/v1/org/api-keys/{id}'].delete
    expect(Object.keys(revoke.responses).sort()).toEqual(
      [
        '204',
        // `confirm` other than `last_key`; revoking the last active key without it.
        String(ERROR_STATUS.invalid_request),
        String(ERROR_STATUS.conflict),
        String(ERROR_STATUS.unauthorized),
        String(ERROR_STATUS.not_found),
        // What every route can answer: a request too slow to arrive, a path segment over the
        // router's length, the database out of reach.
        String(ERROR_STATUS.request_timeout),
        String(ERROR_STATUS.uri_too_long),
        String(ERROR_STATUS.unavailable),
        '500',
      ].sort(),
    )
    expect(revoke.responses['404'].description).toContain('not_found')
    expect(revoke.responses['409'].description).toContain('conflict')
    expect(doc.components.schemas.ErrorEnvelope.properties.error).toEqual({
      $ref: '#/components/schemas/ErrorBody',
    })
    expect(doc.components.schemas.ErrorBody.required).toEqual(['code', 'message'])
    expect(doc.paths['/v1/org/api-keys'].post.security).toEqual([{ admin: [] }])
  })

  it('serves a human reference page that renders the OpenAPI document', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/v1/docs' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
    // The page is rendered in the browser from the document (test/api/reference-page.test.ts
    // checks every operation there): it names the document, and the script that renders it.
    expect(page.body).toContain('&#34;url&#34;:&#34;/v1/openapi.json&#34;')
    expect(page.body).toMatch(/<script src="\/v1\/docs\/[^"]+\.js"><\/script>/)
  })

  it('answers health 503 when the database cannot be reached', async () => {
    const unreachable = createDatabase({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' })
    const config = loadConfig({
      STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
      STRATA_JWT_SECRET: 'x'.repeat(32),
      STRATA_KEY_PEPPER: 'y'.repeat(32),
      LOG_LEVEL: 'silent',
    })
    const ctx = await createContext(config, createLogger('silent'), { database: unreachable })
    const app = await buildApp(ctx)
    try {
      const response = await app.inject({ method: 'GET', url: '/v1/health' })
      expect(response.statusCode).toBe(503)
      expect(response.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' })
      const data = await app.inject({
        method: 'GET',
        url: '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol',
        headers: { 'x-svc-token': generateApiKey() },
      })
      expect(data.statusCode).toBe(503)
      expect(data.json().error.code).toBe('unavailable')
    } finally {
      await app.close()
      await ctx.close()
      await unreachable.close()
    }
  })
})
