import { Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

/** The request log lines among everything the app logged. */
const requestLines = (t: TestApp) =>
  t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request')

describe('the HTTP edge', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('writes exactly one log line for every request, refused ones included', async () => {
    const address = Keypair.random().publicKey()
    const refused = [
      // 401: no credential
      { method: 'GET' as const, url: `/v1/users/${address}/positions/vaultprotocol`, headers: {} },
      // 401: a wrong admin token, which must not appear in the log
      {
        method: 'POST' as const,
        url: '/v1/org/api-keys',
        headers: { 'x-svc-admin-token': 'wrong-admin-token-secret', 'content-type': 'application/json' },
      },
      // 415: right token, no JSON content type
      { method: 'POST' as const, url: '/v1/org/api-keys', headers: { 'x-svc-admin-token': ADMIN_TOKEN } },
    ]
    const statuses = [401, 401, 415]
    for (const [i, request] of refused.entries()) {
      const before = requestLines(t).length
      const response = await t.app.inject({
        ...request,
        payload: request.method === 'POST' ? '{}' : undefined,
      })
      expect(response.statusCode, request.url).toBe(statuses[i])
      const lines = requestLines(t).slice(before)
      expect(lines, request.url).toHaveLength(1)
      expect(lines[0]?.status).toBe(statuses[i])
      expect(lines[0]?.reqId).toBe(response.headers['x-request-id'])
    }
    const all = t.logs.join('\n')
    expect(all).not.toContain('wrong-admin-token-secret')
    expect(all).not.toContain(ADMIN_TOKEN)
  })

  it('refuses unknown query parameters on every route, naming the parameter', async () => {
    const key = await createKey(t.app)
    const address = Keypair.random().publicKey()
    const cases = [
      { url: `/v1/users/${address}/positions/vaultprotocol/at/2500?as_of_ledger=100`, param: 'as_of_ledger' },
      { url: `/v1/users/${address}/positions/vaultprotocol?ledger=100`, param: 'ledger' },
      { url: '/v1/health?verbose=1', param: 'verbose' },
      { url: '/v1/openapi.json?format=yaml', param: 'format' },
    ]
    for (const { url, param } of cases) {
      const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key.key) })
      expect(response.statusCode, url).toBe(400)
      const error = response.json().error
      expect(error.code).toBe('invalid_request')
      expect(error.details.map((d: { field: string }) => d.field)).toEqual([param])
    }
    const plain = await t.app.inject({ method: 'GET', url: '/v1/health' })
    expect(plain.statusCode).not.toBe(400)
  })
})
