import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY_LENGTH } from '../../src/auth/api-key.ts'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKey, createKeyFor, signUp, uniqueSlug } from '../support/factories.ts'

const VALID_ADDRESS = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'

describe('API keys', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('creates an organization and a key with the default data:read scope, shown once', async () => {
    const slug = uniqueSlug()
    const created = await createKey(t.app, { organization_slug: slug, organization_name: 'Acme' })
    expect(created.organization_slug).toBe(slug)
    expect(created.organization_reused).toBe(false)
    expect(created.scopes).toEqual(['data:read'])
    expect(created.expires_at).toBeNull()
    expect(created.key).toMatch(/^strata_[0-9A-Za-z]+$/)
    expect(created.key).toHaveLength(API_KEY_LENGTH)
    expect(created.key_prefix).toBe(created.key.slice(0, 12))
    // Only a hash is at rest: the secret appears nowhere in the table.
    const rows = await t.database.db.selectFrom('api_keys').selectAll().execute()
    const dump = JSON.stringify(rows)
    expect(dump).not.toContain(created.key)
    expect(dump).toContain(created.key_prefix)
  })

  it('reuses an existing organization by slug and leaves it unchanged', async () => {
    const slug = uniqueSlug()
    const first = await createKey(t.app, { organization_slug: slug, organization_name: 'First name' })
    const second = await createKey(t.app, { organization_slug: slug, organization_name: 'Other name' })
    expect(second.organization_reused).toBe(true)
    expect(second.organization_id).toBe(first.organization_id)
    expect(second.api_key_id).not.toBe(first.api_key_id)
    const org = await t.database.db
      .selectFrom('organizations')
      .selectAll()
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow()
    expect(org.name).toBe('First name')
  })

  it('accepts a future RFC 3339 expiry and rejects a past or malformed one', async () => {
    const future = new Date(t.clock.now() + 86_400_000).toISOString()
    const created = await createKey(t.app, { expires_at: future })
    expect(created.expires_at).toBe(future)
    for (const bad of [new Date(t.clock.now() - 1000).toISOString(), 'tomorrow', '2026-13-01T00:00:00Z']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/org/api-keys',
        headers: { 'x-svc-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
        payload: { organization_name: 'x', organization_slug: uniqueSlug(), key_name: 'k', expires_at: bad },
      })
      expect(response.statusCode, bad).toBe(400)
      expect(response.json().error.code).toBe('invalid_request')
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain('expires_at')
    }
  })

  it('refuses an unknown scope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys',
      headers: { 'x-svc-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      payload: {
        organization_name: 'x',
        organization_slug: uniqueSlug(),
        key_name: 'k',
        scopes: ['admin:all'],
      },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details[0].field).toBe('scopes.0')
  })

  it('lists keys newest first without secrets, and records last use within seconds', async () => {
    const user = await signUp(t.app)
    t.clock.advance(1000)
    const a = await createKeyFor(t.app, user, { key_name: 'a' })
    t.clock.advance(1000)
    const b = await createKeyFor(t.app, user, { key_name: 'b' })
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/org/api-keys',
      headers: bearer(user.access_token),
    })
    expect(list.statusCode).toBe(200)
    const records = list.json() as Array<Record<string, unknown>>
    // Signup made the organization's first key, named "default".
    expect(records.map((r) => r.id)).toEqual([b.api_key_id, a.api_key_id, user.api_key.api_key_id])
    expect(records[2]).toMatchObject({ name: 'default', prefix: user.api_key.key_prefix, revoked: false })
    expect(Object.keys(records[0]!).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked', 'scopes'].sort(),
    )
    expect(list.body).not.toContain(a.key)
    expect(list.body).not.toContain(b.key)
    expect(records[1]).toMatchObject({
      name: 'a',
      prefix: a.key_prefix,
      revoked: false,
      last_used_at: null,
      scopes: ['data:read'],
    })

    const usedAt = t.clock.now()
    const data = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${VALID_ADDRESS}/positions/vaultprotocol`,
      headers: apiKey(a.key),
    })
    expect(data.statusCode).toBe(200)
    await t.ctx.keyUsage.flush()
    const after = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(user.access_token) })
    ).json() as Array<{
      id: string
      last_used_at: string | null
    }>
    expect(after.find((r) => r.id === a.api_key_id)?.last_used_at).toBe(new Date(usedAt).toISOString())
    expect(after.find((r) => r.id === b.api_key_id)?.last_used_at).toBeNull()
  })

  it('revokes with 204, idempotently, and the key is refused on the very next request', async () => {
    const user = await signUp(t.app)
    t.clock.advance(1000)
    const key = await createKeyFor(t.app, user)
    const url = `/v1/users/${VALID_ADDRESS}/positions/vaultprotocol`
    expect((await t.app.inject({ method: 'GET', url, headers: apiKey(key.key) })).statusCode).toBe(200)
    const revoke = () =>
      t.app.inject({
        method: 'DELETE',
        url: `/v1/org/api-keys/${key.api_key_id}`,
        headers: bearer(user.access_token),
      })
    const first = await revoke()
    expect(first.statusCode).toBe(204)
    expect(first.body).toBe('')
    expect((await revoke()).statusCode).toBe(204)
    const refused = await t.app.inject({ method: 'GET', url, headers: apiKey(key.key) })
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error.code).toBe('unauthorized')
    const list = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(user.access_token) })
    ).json()
    expect(list[0]).toMatchObject({ id: key.api_key_id, revoked: true })
  })

  it('answers 404 for an unknown key id and for another organization’s key, changing nothing', async () => {
    const mine = await signUp(t.app)
    const theirs = await signUp(t.app)
    const theirKey = await createKeyFor(t.app, theirs)
    for (const id of ['key_doesnotexist', theirKey.api_key_id]) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/v1/org/api-keys/${id}`,
        headers: bearer(mine.access_token),
      })
      expect(response.statusCode).toBe(404)
      expect(response.json().error.code).toBe('not_found')
    }
    const still = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${VALID_ADDRESS}/positions/vaultprotocol`,
      headers: apiKey(theirKey.key),
    })
    expect(still.statusCode).toBe(200)
    const mineList = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(mine.access_token) })
    ).json()
    expect(mineList.map((k: { id: string }) => k.id)).toEqual([mine.api_key.api_key_id])
  })

  it('refuses an expired key with 401', async () => {
    const key = await createKey(t.app, { expires_at: new Date(t.clock.now() + 60_000).toISOString() })
    const url = `/v1/users/${VALID_ADDRESS}/positions/vaultprotocol`
    expect((await t.app.inject({ method: 'GET', url, headers: apiKey(key.key) })).statusCode).toBe(200)
    t.clock.advance(60_000)
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key.key) })
    expect(response.statusCode).toBe(401)
    expect(response.json().error.message).toContain('expired')
  })
})
