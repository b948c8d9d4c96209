import { Keypair } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKey, signUp } from '../support/factories.ts'

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

describe('router refusals and methods', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const expectEnvelope = (
    response: Awaited<ReturnType<TestApp['app']['inject']>>,
    status: number,
    code: string,
  ) => {
    expect(response.statusCode).toBe(status)
    const id = response.headers['x-request-id']
    expect(typeof id).toBe('string')
    const body = response.json()
    expect(body.error.code).toBe(code)
    expect(typeof body.error.message).toBe('string')
    expect(body.meta.request_id).toBe(id)
    expect(typeof body.meta.response_time_ms).toBe('number')
  }

  it('answers a malformed percent-escape and an over-long segment in the envelope, logged once', async () => {
    const before = requestLines(t).length
    const malformed = await t.app.inject({ method: 'GET', url: '/v1/users/%E0%A4%A/positions/vaultprotocol' })
    expectEnvelope(malformed, 400, 'invalid_request')
    const long = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${'G'.repeat(300)}/positions/vaultprotocol`,
    })
    expectEnvelope(long, 414, 'uri_too_long')
    const lines = requestLines(t).slice(before)
    expect(lines.map((line) => line.status)).toEqual([400, 414])
  })

  it('answers 405 with Allow for a known path asked with another method, 404 for an unknown path', async () => {
    const health = await t.app.inject({ method: 'DELETE', url: '/v1/health' })
    expectEnvelope(health, 405, 'method_not_allowed')
    expect(health.headers.allow).toBe('GET, HEAD')
    const address = Keypair.random().publicKey()
    const positions = await t.app.inject({
      method: 'POST',
      url: `/v1/users/${address}/positions/vaultprotocol/`,
    })
    expectEnvelope(positions, 405, 'method_not_allowed')
    expect(positions.headers.allow).toBe('GET, HEAD')
    const keys = await t.app.inject({ method: 'PUT', url: '/v1/org/api-keys' })
    expectEnvelope(keys, 405, 'method_not_allowed')
    expect(String(keys.headers.allow).split(', ')).toContain('POST')
    expectEnvelope(await t.app.inject({ method: 'GET', url: '/v1/nowhere' }), 404, 'not_found')
  })

  it('leads / and /v1 to the reference page', async () => {
    for (const url of ['/', '/v1', '/v1/']) {
      const response = await t.app.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(302)
      expect(response.headers.location).toBe('/v1/docs')
    }
    const page = await t.app.inject({ method: 'GET', url: '/v1/docs' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
  })
})

describe('validation messages and the quota', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const jargon = /must match pattern|equal to constant|must NOT have|\^\[/

  it('words every validation failure plainly, naming the field', async () => {
    const key = await createKey(t.app)
    const address = Keypair.random().publicKey()
    const pin = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${address}/positions/vaultprotocol?as_of_ledger=abc`,
      headers: apiKey(key.key),
    })
    expect(pin.statusCode).toBe(400)
    expect(pin.json().error.details).toEqual([
      {
        field: 'as_of_ledger',
        message: 'as_of_ledger must be a ledger number (a whole number from 0 to 2^63-1)',
      },
    ])
    const huge = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${address}/positions/vaultprotocol/at/9223372036854775808`,
      headers: apiKey(key.key),
    })
    expect(huge.statusCode).toBe(400)
    expect(huge.json().error.details[0].message).toBe(
      'ledger must be a ledger number (a whole number from 0 to 2^63-1)',
    )
    const body = await t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys',
      headers: { 'x-svc-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      payload: { organization_name: 'x', organization_slug: '-bad-', key_name: 7, extra: 1 },
    })
    expect(body.statusCode).toBe(400)
    const messages = Object.fromEntries(
      (body.json().error.details as Array<{ field: string; message: string }>).map((d) => [
        d.field,
        d.message,
      ]),
    )
    expect(messages.extra).toBe('extra is not a known field')
    expect(messages.key_name).toBe('key_name must be a string')
    expect(messages.organization_slug).toMatch(/^organization_slug must be lower-case letters, digits/)
    for (const response of [pin, huge, body]) expect(response.body).not.toMatch(jargon)
  })

  it('words a body with nothing to change and a value of no accepted form, never in the validator jargon', async () => {
    const user = await signUp(t.app)
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: '/v1/org/billing',
        headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
        payload,
      })
    const empty = await patch({})
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error.details).toEqual([
      { field: '(body)', message: '(body) must set at least one of plan, billing_email' },
    ])
    const wrong = await patch({ billing_email: 5 })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error.details).toEqual([
      { field: 'billing_email', message: 'billing_email must be an email address or null' },
    ])
    for (const response of [empty, wrong]) {
      expect(response.body).not.toMatch(jargon)
      expect(response.body).not.toMatch(/accepted forms|properties/)
    }
  })

  it('does not spend the quota on an invalid address', async () => {
    const key = await createKey(t.app)
    const good = `/v1/users/${Keypair.random().publicKey()}/positions/vaultprotocol`
    const remaining = async () => {
      const response = await t.app.inject({ method: 'GET', url: good, headers: apiKey(key.key) })
      const match = /;r=(\d+);/.exec(String(response.headers.ratelimit))
      expect(match, String(response.headers.ratelimit)).not.toBeNull()
      return Number(match?.[1])
    }
    const before = await remaining()
    for (let i = 0; i < 10; i++) {
      const bad = await t.app.inject({
        method: 'GET',
        url: '/v1/users/GNOTANADDRESS/positions/vaultprotocol',
        headers: apiKey(key.key),
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().error.code).toBe('invalid_address')
    }
    // Only the second good request itself is counted.
    expect(await remaining()).toBe(before - 1)
  })
})

describe('requests without a body', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('serves a bodiless DELETE sent with content-type: application/json', async () => {
    const user = await signUp(t.app)
    // With and without a Content-Length: 0, as different clients send it.
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', 'content-length': '0' },
      { 'content-type': 'application/json; charset=utf-8' },
    ]) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/v1/org/api-keys/${user.api_key.api_key_id}?confirm=last_key`,
        headers: { ...bearer(user.access_token), ...headers },
      })
      expect(response.statusCode, JSON.stringify(headers)).toBe(204)
    }
  })

  it('says the body is missing, naming the required fields, when a logout has none', async () => {
    const user = await signUp(t.app)
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/logout',
        headers: { ...bearer(user.access_token), ...headers },
      })
      expect(response.statusCode, JSON.stringify(headers)).toBe(400)
      expect(response.json().error).toEqual({
        code: 'invalid_request',
        message:
          'the request body is missing: send a JSON object with refresh_token (content-type: application/json)',
        details: [{ field: 'refresh_token', message: 'refresh_token is required' }],
      })
    }
    // A body of another type is still 415, and an empty object names the missing field.
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { ...bearer(user.access_token), 'content-type': 'text/plain' },
      payload: 'refresh_token=x',
    })
    expect(text.statusCode).toBe(415)
    const empty = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
      payload: '{}',
    })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error.details).toEqual([
      { field: 'refresh_token', message: 'refresh_token is required' },
    ])
  })

  it('reads a missing body as {} where every field is optional (rotation)', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const user = await signUp(t.app)
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/org/api-keys/${user.api_key.api_key_id}/rotate`,
        headers: { ...bearer(user.access_token), ...headers },
      })
      expect(response.statusCode, JSON.stringify(headers)).toBe(201)
    }
  })
})
