import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKeyFor, type SignedUp, signUp } from '../support/factories.ts'

const DATA_URL = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'

interface KeyRecord {
  id: string
  name: string
  prefix: string
  scopes: string[]
  revoked: boolean
  expires_at: string | null
}

describe('rotating an API key', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const rotate = (user: SignedUp, id: string, payload?: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${id}/rotate`,
      headers: payload
        ? { ...bearer(user.access_token), 'content-type': 'application/json' }
        : bearer(user.access_token),
      ...(payload ? { payload } : {}),
    })
  const data = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(key) })).statusCode
  const listKeys = async (user: SignedUp) =>
    (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(user.access_token) })
    ).json() as KeyRecord[]

  it('answers a new key with the same name and scopes; the old key lives out its window, then 401', async () => {
    const user = await signUp(t.app)
    const old = await createKeyFor(t.app, user, { key_name: 'billing sync', scopes: ['data:read'] })
    const rotatedAt = t.clock.now()
    const response = await rotate(user, old.api_key_id, { old_key_expires_in_seconds: 3600 })
    expect(response.statusCode, response.body).toBe(201)
    const fresh = response.json()
    expect(Object.keys(fresh).sort()).toEqual(
      [
        'api_key_id',
        'expires_at',
        'key',
        'key_prefix',
        'organization_id',
        'organization_reused',
        'organization_slug',
        'scopes',
      ].sort(),
    )
    expect(fresh).toMatchObject({
      organization_id: user.organization_id,
      organization_slug: user.organization_slug,
      organization_reused: true,
      scopes: ['data:read'],
      expires_at: null,
    })
    expect(fresh.api_key_id).not.toBe(old.api_key_id)
    expect(fresh.key).not.toBe(old.key)
    expect(fresh.key_prefix).toBe(fresh.key.slice(0, 12))

    // The listing shows both: the old one's expiry moved to the end of the window.
    const windowEnd = new Date(rotatedAt + 3_600_000).toISOString()
    const keys = await listKeys(user)
    expect(keys.find((k) => k.id === old.api_key_id)).toMatchObject({
      name: 'billing sync',
      revoked: false,
      expires_at: windowEnd,
    })
    expect(keys.find((k) => k.id === fresh.api_key_id)).toMatchObject({
      name: 'billing sync',
      prefix: fresh.key_prefix,
      scopes: ['data:read'],
      revoked: false,
      expires_at: null,
    })

    expect(await data(old.key)).toBe(200)
    expect(await data(fresh.key)).toBe(200)
    t.clock.set(rotatedAt + 3_600_000 - 1)
    expect(await data(old.key)).toBe(200)
    // The first request after the window is refused, and says why.
    t.clock.set(rotatedAt + 3_600_000)
    const refused = await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(old.key) })
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error.code).toBe('unauthorized')
    expect(refused.json().error.message).toContain(fresh.api_key_id)
    expect(await data(fresh.key)).toBe(200)
  })

  it('refuses the old key on the very next request without a window (the default is 0)', async () => {
    const user = await signUp(t.app)
    const old = user.api_key
    expect(await data(old.key)).toBe(200)
    // No body at all: every field of the rotation body is optional.
    const response = await rotate(user, old.api_key_id)
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json().scopes).toEqual(old.scopes)
    expect(await data(old.key)).toBe(401)
    expect(await data(response.json().key)).toBe(200)
    const record = (await listKeys(user)).find((k) => k.id === old.api_key_id)
    expect(record?.expires_at).toBe(new Date(t.clock.now()).toISOString())
  })

  it('keeps the expiry of a key that expires before the window ends, and gives it to the new key', async () => {
    const user = await signUp(t.app)
    const expiresAt = new Date(t.clock.now() + 600_000).toISOString()
    const old = await createKeyFor(t.app, user, { expires_at: expiresAt })
    const response = await rotate(user, old.api_key_id, { old_key_expires_in_seconds: 604_800 })
    expect(response.statusCode).toBe(201)
    expect(response.json().expires_at).toBe(expiresAt)
    const keys = await listKeys(user)
    expect(keys.find((k) => k.id === old.api_key_id)?.expires_at).toBe(expiresAt)
    expect(keys.find((k) => k.id === response.json().api_key_id)?.expires_at).toBe(expiresAt)
  })

  it('answers 409 for a key already rotated, revoked or expired, changing nothing', async () => {
    const user = await signUp(t.app)
    const rotated = await createKeyFor(t.app, user)
    const first = await rotate(user, rotated.api_key_id, { old_key_expires_in_seconds: 60 })
    expect(first.statusCode).toBe(201)
    const again = await rotate(user, rotated.api_key_id, { old_key_expires_in_seconds: 60 })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('conflict')
    expect(again.json().error.message).toContain(first.json().api_key_id)

    const revoked = await createKeyFor(t.app, user)
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${revoked.api_key_id}`,
      headers: bearer(user.access_token),
    })
    const ofRevoked = await rotate(user, revoked.api_key_id)
    expect(ofRevoked.statusCode).toBe(409)
    expect(ofRevoked.json().error.message).toContain('revoked')

    const expiring = await createKeyFor(t.app, user, {
      expires_at: new Date(t.clock.now() + 1000).toISOString(),
    })
    t.clock.advance(1000)
    const ofExpired = await rotate(user, expiring.api_key_id)
    expect(ofExpired.statusCode).toBe(409)
    expect(ofExpired.json().error.message).toContain('expired')

    // No key was created by the refused rotations: the rotated key, its replacement, the revoked,
    // the expired one and signup's first key.
    expect((await listKeys(user)).length).toBe(5)
  })

  it('lets a rotated-out key be revoked during its window, which ends it at once', async () => {
    const user = await signUp(t.app)
    const old = await createKeyFor(t.app, user)
    expect((await rotate(user, old.api_key_id, { old_key_expires_in_seconds: 3600 })).statusCode).toBe(201)
    expect(await data(old.key)).toBe(200)
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${old.api_key_id}`,
      headers: bearer(user.access_token),
    })
    expect(revoke.statusCode).toBe(204)
    expect(await data(old.key)).toBe(401)
  })

  it('validates the window: a whole number of seconds from 0 to 604800', async () => {
    const user = await signUp(t.app)
    for (const bad of [-1, 604_801, 1.5, '60']) {
      const response = await rotate(user, user.api_key.api_key_id, { old_key_expires_in_seconds: bad })
      expect(response.statusCode, String(bad)).toBe(400)
      expect(response.json().error.details[0].field).toBe('old_key_expires_in_seconds')
    }
    const unknown = await rotate(user, user.api_key.api_key_id, { expires_in: 60 })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error.details[0].field).toBe('expires_in')
    // Nothing was rotated.
    expect(await data(user.api_key.key)).toBe(200)
  })
})
