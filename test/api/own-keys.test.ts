import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, grantPlan, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKeyFor, type SignedUp, signUp } from '../support/factories.ts'

const DATA_URL = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'
const json = { 'content-type': 'application/json' }

describe('a member creating keys for their own organization', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const create = (user: SignedUp, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys/new',
      headers: { ...json, ...bearer(user.access_token), ...headers },
      payload,
    })
  const data = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(key) })).statusCode

  it('answers 201 with the secret once, named, scoped and expiring as asked, audited as the member', async () => {
    const user = await signUp(t.app)
    t.clock.advance(1000)
    const expiresAt = new Date(t.clock.now() + 86_400_000).toISOString()
    const response = await create(user, { name: 'ci runner', scopes: ['data:read'], expires_at: expiresAt })
    expect(response.statusCode).toBe(201)
    expect(response.headers['cache-control']).toBe('no-store')
    const created = response.json()
    expect(created).toMatchObject({
      organization_id: user.organization_id,
      organization_slug: user.organization_slug,
      organization_reused: true,
      scopes: ['data:read'],
      expires_at: expiresAt,
    })
    expect(created.key_prefix).toBe(created.key.slice(0, 12))
    expect(await data(created.key)).toBe(200)
    const list = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(user.access_token) })
    ).json()
    expect(list[0]).toMatchObject({
      id: created.api_key_id,
      name: 'ci runner',
      revoked: false,
      expires_at: expiresAt,
    })
    const rows = await t.database.db.selectFrom('api_keys').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(created.key)
    const events = (
      await t.app.inject({ method: 'GET', url: '/v1/org/audit-log', headers: bearer(user.access_token) })
    ).json().data as Array<Record<string, unknown>>
    expect(events[0]).toMatchObject({
      action: 'api_key.created',
      actor: user.user_id,
      target: created.api_key_id,
      details: { name: 'ci runner', key_prefix: created.key_prefix, scopes: ['data:read'] },
    })
  })

  it('gives the data:read scope by default and a key with no scopes when asked for none', async () => {
    const user = await signUp(t.app)
    const plain = await create(user, { name: 'plain' })
    expect(plain.statusCode).toBe(201)
    expect(plain.json().scopes).toEqual(['data:read'])
    expect(plain.json().expires_at).toBeNull()
    const scopeless = await create(user, { name: 'none', scopes: [] })
    expect(scopeless.statusCode).toBe(201)
    expect(scopeless.json().scopes).toEqual([])
    expect(await data(scopeless.json().key)).toBe(403)
  })

  it('replays the same key for a repeated Idempotency-Key', async () => {
    const user = await signUp(t.app)
    const first = await create(user, { name: 'once' }, { 'idempotency-key': 'own-key-1' })
    const again = await create(user, { name: 'once' }, { 'idempotency-key': 'own-key-1' })
    expect(first.statusCode).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(again.json().api_key_id).toBe(first.json().api_key_id)
    const list = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(user.access_token) })
    ).json()
    expect(list).toHaveLength(2)
  })

  it('refuses bad input with 400 and a missing or wrong credential with 401', async () => {
    const user = await signUp(t.app)
    const bad = [
      { payload: {}, field: 'name' },
      { payload: { name: 'x', scopes: ['admin:all'] }, field: 'scopes.0' },
      {
        payload: { name: 'x', expires_at: new Date(t.clock.now() - 1000).toISOString() },
        field: 'expires_at',
      },
      { payload: { name: 'x', expires_at: 'tomorrow' }, field: 'expires_at' },
      { payload: { name: 'x', organization_slug: 'other' }, field: 'organization_slug' },
    ]
    for (const { payload, field } of bad) {
      const response = await create(user, payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json().error.code).toBe('invalid_request')
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain(field)
    }
    for (const headers of [{}, { 'x-svc-admin-token': ADMIN_TOKEN }, { 'x-svc-token': user.api_key.key }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/org/api-keys/new',
        headers: { ...json, ...headers },
        payload: { name: 'x' },
      })
      expect(response.statusCode).toBe(401)
      expect(response.json().error.code).toBe('unauthorized')
    }
  })

  it('holds each plan to its limit of active keys: 5 on free, 25 on pro', async () => {
    const user = await signUp(t.app)
    // Signup made the first; four more reach the free plan's five.
    for (let i = 2; i <= 5; i++) expect((await create(user, { name: `k${i}` })).statusCode).toBe(201)
    const over = await create(user, { name: 'k6' })
    expect(over.statusCode).toBe(409)
    expect(over.json().error.code).toBe('conflict')
    expect(over.json().error.message).toMatch(/\bfree plan allows 5 active API keys\b/)
    // A revoked key frees its place; so does an expired one.
    const list = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(user.access_token) })
    ).json() as Array<{ id: string }>
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${list[0]?.id}`,
      headers: bearer(user.access_token),
    })
    expect(revoke.statusCode).toBe(204)
    const expiring = await create(user, {
      name: 'short',
      expires_at: new Date(t.clock.now() + 60_000).toISOString(),
    })
    expect(expiring.statusCode).toBe(201)
    expect((await create(user, { name: 'k7' })).statusCode).toBe(409)
    t.clock.advance(60_000)
    expect((await create(user, { name: 'k7' })).statusCode).toBe(201)
    expect((await create(user, { name: 'k8' })).statusCode).toBe(409)
    // The pro plan allows 25: twenty more after the five.
    await grantPlan(t, user.organization_id, 'pro')
    for (let i = 0; i < 20; i++) expect((await create(user, { name: `p${i}` })).statusCode).toBe(201)
    const overPro = await create(user, { name: 'p20' })
    expect(overPro.statusCode).toBe(409)
    expect(overPro.json().error.message).toMatch(/\bpro plan allows 25 active API keys\b/)
    // The operator's endpoint is not held to it.
    expect((await createKeyFor(t.app, user)).api_key_id).toMatch(/^key_/)
  })

  it('lets exactly one of concurrent creations take the last place', async () => {
    const user = await signUp(t.app)
    for (let i = 2; i <= 4; i++) expect((await create(user, { name: `k${i}` })).statusCode).toBe(201)
    const answers = await Promise.all([1, 2, 3].map((i) => create(user, { name: `race${i}` })))
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409])
    const active = await t.database.db
      .selectFrom('api_keys')
      .select('id')
      .where('organization_id', '=', user.organization_id)
      .execute()
    expect(active).toHaveLength(5)
  })
})

describe('revoking the last active key', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const revoke = (user: SignedUp, id: string, query = '') =>
    t.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${id}${query}`,
      headers: bearer(user.access_token),
    })
  const data = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(key) })).statusCode

  it('is 409 without confirm=last_key, changing nothing, and 204 with it', async () => {
    const user = await signUp(t.app)
    const refused = await revoke(user, user.api_key.api_key_id)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error.code).toBe('conflict')
    expect(refused.json().error.message).toContain('confirm=last_key')
    expect(await data(user.api_key.key)).toBe(200)
    const wrong = await revoke(user, user.api_key.api_key_id, '?confirm=yes')
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error.code).toBe('invalid_request')
    expect(await data(user.api_key.key)).toBe(200)
    const confirmed = await revoke(user, user.api_key.api_key_id, '?confirm=last_key')
    expect(confirmed.statusCode).toBe(204)
    expect(await data(user.api_key.key)).toBe(401)
    // Revoked already: revoking it again changes nothing and needs no confirmation.
    expect((await revoke(user, user.api_key.api_key_id)).statusCode).toBe(204)
  })

  it('needs no confirmation while another key is active, and counts an expired one as gone', async () => {
    const user = await signUp(t.app)
    const other = await createKeyFor(t.app, user)
    expect((await revoke(user, other.api_key_id)).statusCode).toBe(204)
    expect((await revoke(user, user.api_key.api_key_id)).statusCode).toBe(409)

    const second = await signUp(t.app)
    await createKeyFor(t.app, second, { expires_at: new Date(t.clock.now() + 1000).toISOString() })
    t.clock.advance(1000)
    expect((await revoke(second, second.api_key.api_key_id)).statusCode).toBe(409)
  })

  it('leaves rotation alone, and does not count a key rotated out as one that lasts', async () => {
    const user = await signUp(t.app)
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${user.api_key.api_key_id}/rotate`,
      headers: { ...json, ...bearer(user.access_token) },
      payload: { old_key_expires_in_seconds: 3600 },
    })
    expect(rotated.statusCode).toBe(201)
    expect(await data(rotated.json().key)).toBe(200)
    // The old key still works for an hour, but the new one is the last that lasts.
    expect(await data(user.api_key.key)).toBe(200)
    expect((await revoke(user, rotated.json().api_key_id)).statusCode).toBe(409)
    // The old one may go at once: it ends by itself anyway.
    expect((await revoke(user, user.api_key.api_key_id)).statusCode).toBe(204)
    expect(await data(rotated.json().key)).toBe(200)
  })

  it('lets only one of two concurrent revocations of the last two keys through', async () => {
    const user = await signUp(t.app)
    const other = await createKeyFor(t.app, user)
    const answers = await Promise.all([revoke(user, user.api_key.api_key_id), revoke(user, other.api_key_id)])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 409])
  })
})
