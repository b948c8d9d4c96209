import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_STATUS } from '../../src/errors.ts'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { uniqueSlug } from '../support/factories.ts'

const admin = { 'x-svc-admin-token': ADMIN_TOKEN }

describe('bad input gets a clear 4xx, never a 500', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT_BYTES: '2048' })
  })
  afterAll(async () => t.close())

  const post = (payload: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/v1/org/api-keys', headers: { ...admin, ...headers }, payload })

  it('answers 415 without application/json', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]
    for (const headers of cases) {
      const response = await post('organization_name=x', headers)
      expect(response.statusCode, JSON.stringify(headers)).toBe(415)
      expect(response.json().error.code).toBe('unsupported_media_type')
    }
  })

  it('answers 400 for malformed or empty JSON, 413 for an oversize body', async () => {
    const malformed = await post('{"organization_name": ', { 'content-type': 'application/json' })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().error.code).toBe('invalid_request')
    const empty = await post('', { 'content-type': 'application/json' })
    expect(empty.statusCode).toBe(400)
    const big = await post(JSON.stringify({ organization_name: 'x'.repeat(4096) }), {
      'content-type': 'application/json',
    })
    expect(big.statusCode).toBe(413)
    expect(big.json().error.code).toBe('payload_too_large')
  })

  it('names every invalid field in details, unknown fields included', async () => {
    const response = await post(
      JSON.stringify({ organization_slug: 'Not A Slug', key_name: 42, extra: true }),
      {
        'content-type': 'application/json; charset=utf-8',
      },
    )
    expect(response.statusCode).toBe(400)
    const fields = (response.json().error.details as Array<{ field: string }>).map((d) => d.field).sort()
    expect(fields).toEqual(['extra', 'key_name', 'organization_name', 'organization_slug'])
  })

  it('rejects JSON that is not an object, and prototype pollution attempts', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const response = await post(payload, { 'content-type': 'application/json' })
      expect(response.statusCode, payload).toBe(400)
    }
    const proto = await post(
      JSON.stringify({ organization_name: 'x', organization_slug: uniqueSlug(), key_name: 'k' }).replace(
        '{',
        '{"__proto__":{"x":1},',
      ),
      { 'content-type': 'application/json' },
    )
    expect(proto.statusCode).toBe(400)
  })

  it('answers unknown routes with the 404 envelope and echoes a sane request id', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/nothing-here',
      headers: { 'x-request-id': 'abc-123' },
    })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ error: { code: 'not_found' }, meta: { request_id: 'abc-123' } })
    expect(response.headers['x-request-id']).toBe('abc-123')
    const unsafe = await t.app.inject({
      method: 'GET',
      url: '/v1/health',
      headers: { 'x-request-id': 'bad id\n' },
    })
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('maps every error code to its documented status', () => {
    expect(ERROR_STATUS).toEqual({
      invalid_request: 400,
      invalid_address: 400,
      unauthorized: 401,
      insufficient_scope: 403,
      forbidden: 403,
      not_found: 404,
      method_not_allowed: 405,
      conflict: 409,
      ledger_not_indexed: 409,
      request_timeout: 408,
      payload_too_large: 413,
      uri_too_long: 414,
      unsupported_media_type: 415,
      idempotency_key_reused: 422,
      rate_limited: 429,
      internal: 500,
      unavailable: 503,
    })
  })
})
