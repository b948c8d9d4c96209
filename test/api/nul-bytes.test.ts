import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { TEST_DB_KIND } from '../support/database.ts'
import { apiKey, bearer, createKey, type SignedUp, signUp, uniqueSlug } from '../support/factories.ts'

const ADDRESS = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'
const NUL = String.fromCharCode(0)

/**
 * A NUL character is no field's value, and PostgreSQL cannot store one in text ("invalid byte
 * sequence for encoding UTF8: 0x00"): wherever a request carries one (its path, its query, any
 * string or key of its JSON body), the answer is a 400 naming where, on both stores, before any
 * statement runs with it.
 */
describe(`a NUL character anywhere in a request is a 400 (${TEST_DB_KIND})`, () => {
  let t: TestApp
  let key: string
  let user: SignedUp

  beforeAll(async () => {
    t = await createTestApp()
    key = (await createKey(t.app)).key
    user = await signUp(t.app)
  })
  afterAll(async () => t?.close())

  const json = { 'content-type': 'application/json' }
  const refused = (response: { statusCode: number; json(): unknown }, field: string) => {
    expect(response.statusCode).toBe(400)
    const error = (response.json() as { error: { code: string; message: string; details: unknown } }).error
    expect(error.code).toBe('invalid_request')
    expect(error.details).toEqual([
      { field, message: `${field} must not contain a NUL character (\\u0000 or %00)` },
    ])
  }

  /** `POST /v1/org/api-keys` with the admin token and a body sent as is. */
  const createKeyWith = (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys',
      headers: { ...json, 'x-svc-admin-token': ADMIN_TOKEN },
      payload: JSON.stringify(body),
    })

  it('in the path or the query of a data request, before the key lookup and the snapshot seek', async () => {
    for (const url of [
      '/v1/users/%00/positions/vaultprotocol',
      `/v1/users/${ADDRESS}%00/positions`,
      `/v1/users/${ADDRESS}/positions?as_of_ledger=1%00`,
      `/v1/users/${ADDRESS}/activities?type=swap%00`,
      '/v1/transactions/%00',
    ]) {
      refused(await t.app.inject({ method: 'GET', url, headers: apiKey(key) }), 'url')
    }
    // Without a key too: nothing about the request is read with the character in it.
    refused(await t.app.inject({ method: 'GET', url: '/v1/users/%00/positions' }), 'url')
  })

  it('in a body field of login, signup, key creation and a key id of the management endpoints', async () => {
    refused(
      await t.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        headers: json,
        payload: JSON.stringify({ email: `a${NUL}@example.com`, password: 'whatever-123' }),
      }),
      'email',
    )
    const slug = uniqueSlug()
    refused(
      await t.app.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        headers: json,
        payload: JSON.stringify({
          organization_name: `Org${NUL}`,
          organization_slug: slug,
          email: `${slug}@example.com`,
          password: 'a-long-password-1',
        }),
      }),
      'organization_name',
    )
    refused(
      await createKeyWith({ organization_slug: uniqueSlug(), organization_name: 'Org', key_name: `k${NUL}` }),
      'key_name',
    )
    // A string inside an array is found as well, named by its index.
    refused(
      await createKeyWith({
        organization_slug: uniqueSlug(),
        key_name: 'k',
        scopes: ['data:read', `x${NUL}`],
      }),
      'scopes[1]',
    )
    refused(
      await t.app.inject({
        method: 'DELETE',
        url: '/v1/org/api-keys/key%00x',
        headers: bearer(user.access_token),
      }),
      'url',
    )
    // Nothing was created by the refused requests: the organization still has its one key.
    const keys = await t.app.inject({
      method: 'GET',
      url: '/v1/org/api-keys',
      headers: bearer(user.access_token),
    })
    expect(keys.statusCode).toBe(200)
    expect((keys.json() as unknown[]).length).toBe(1)
  })

  it('tells an escaped backslash followed by u0000 (no NUL) from a NUL', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: json,
      payload: JSON.stringify({ email: 'a\\u0000@example.com', password: 'whatever-123' }),
    })
    expect(response.statusCode).not.toBe(500)
    expect(response.json().error.message).not.toContain('NUL')
  })
})
