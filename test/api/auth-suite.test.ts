import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteAuth } from '../../src/api/request-context.ts'
import { generateApiKey } from '../../src/auth/api-key.ts'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKey, createKeyFor, type SignedUp, signUp } from '../support/factories.ts'

const ADDRESS = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'

interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** OpenAPI path template, as the document lists it. */
  path: string
  url: string
  auth: Exclude<RouteAuth, 'none'>
  body?: Record<string, unknown>
  /** The status a valid credential gets (200 unless the route's resource cannot exist here). */
  ok?: number
}

/** Every protected route. The last test fails when the API grows a route this table lacks. */
const ROUTES: ProtectedRoute[] = [
  { method: 'GET', path: '/v1/org', url: '/v1/org', auth: 'bearer' },
  { method: 'GET', path: '/v1/org/usage', url: '/v1/org/usage', auth: 'bearer' },
  { method: 'PATCH', path: '/v1/org/billing', url: '/v1/org/billing', auth: 'bearer', body: { plan: 'pro' } },
  { method: 'GET', path: '/v1/org/api-keys', url: '/v1/org/api-keys', auth: 'bearer' },
  {
    method: 'POST',
    path: '/v1/org/api-keys/new',
    url: '/v1/org/api-keys/new',
    auth: 'bearer',
    body: { name: 'auth suite' },
    ok: 201,
  },
  { method: 'DELETE', path: '/v1/org/api-keys/{id}', url: '/v1/org/api-keys/key_unknown', auth: 'bearer' },
  {
    method: 'POST',
    path: '/v1/org/api-keys/{id}/rotate',
    url: '/v1/org/api-keys/key_unknown/rotate',
    auth: 'bearer',
    body: { old_key_expires_in_seconds: 60 },
  },
  { method: 'GET', path: '/v1/org/audit-log', url: '/v1/org/audit-log', auth: 'bearer' },
  {
    method: 'POST',
    path: '/v1/webhooks',
    url: '/v1/webhooks',
    auth: 'bearer',
    body: { url: 'https://hooks.example.com/in', events: ['position.changed'] },
  },
  { method: 'GET', path: '/v1/webhooks', url: '/v1/webhooks', auth: 'bearer' },
  { method: 'GET', path: '/v1/webhooks/{id}', url: '/v1/webhooks/wh_unknown', auth: 'bearer' },
  {
    method: 'PATCH',
    path: '/v1/webhooks/{id}',
    url: '/v1/webhooks/wh_unknown',
    auth: 'bearer',
    body: { status: 'disabled' },
  },
  {
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    url: '/v1/webhooks/wh_unknown/rotate-secret',
    auth: 'bearer',
  },
  { method: 'DELETE', path: '/v1/webhooks/{id}', url: '/v1/webhooks/wh_unknown', auth: 'bearer' },
  {
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    url: '/v1/webhooks/wh_unknown/deliveries',
    auth: 'bearer',
  },
  {
    method: 'POST',
    path: '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    url: '/v1/webhooks/wh_unknown/deliveries/msg_1/redeliver',
    auth: 'bearer',
  },
  {
    method: 'POST',
    path: '/v1/auth/logout',
    url: '/v1/auth/logout',
    auth: 'bearer',
    body: { refresh_token: 'x' },
  },
  {
    method: 'POST',
    path: '/v1/org/api-keys',
    url: '/v1/org/api-keys',
    auth: 'admin',
    body: { organization_name: 'n', organization_slug: 'auth-suite', key_name: 'k' },
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/vaultprotocol',
    url: `/v1/users/${ADDRESS}/positions/vaultprotocol`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/vaultprotocol/at/{ledger}',
    url: `/v1/users/${ADDRESS}/positions/vaultprotocol/at/100`,
    auth: 'api_key',
  },
  ...['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol'].flatMap(
    (protocol): ProtectedRoute[] => [
      {
        method: 'GET',
        path: `/v1/users/{address}/positions/${protocol}/history`,
        url: `/v1/users/${ADDRESS}/positions/${protocol}/history`,
        auth: 'api_key',
      },
    ],
  ),
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/lendingprotocol',
    url: `/v1/users/${ADDRESS}/positions/lendingprotocol`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/lendingprotocol/at/{ledger}',
    url: `/v1/users/${ADDRESS}/positions/lendingprotocol/at/100`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/protocols/lendingprotocol/pools/{pool}',
    url: '/v1/protocols/lendingprotocol/pools/CAJJZSGMMM3PD7N33TAPHGBUGTB43OC73HVIK2L2G6BNGGGYOSSYBXBD',
    auth: 'api_key',
    // This store has indexed no network, so it knows no pool.
    ok: 404,
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions',
    url: `/v1/users/${ADDRESS}/positions`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/ledgers/at-time',
    url: '/v1/ledgers/at-time?time=2026-01-01T00:00:00Z',
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/at/{ledger}',
    url: `/v1/users/${ADDRESS}/positions/at/latest`,
    auth: 'api_key',
  },
  { method: 'GET', path: '/v1/protocols', url: '/v1/protocols', auth: 'api_key' },
  ...['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol'].map(
    (protocol): ProtectedRoute => ({
      method: 'GET',
      path: `/v1/protocols/${protocol}/tvl`,
      url: `/v1/protocols/${protocol}/tvl`,
      auth: 'api_key',
    }),
  ),
  {
    method: 'GET',
    path: '/v1/transactions/{hash}',
    url: `/v1/transactions/${'ab'.repeat(32)}`,
    auth: 'api_key',
    // This store has ingested no transaction.
    ok: 404,
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/activities',
    url: `/v1/users/${ADDRESS}/activities`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/stream/positions',
    // A range already behind its start: the stream has nothing to send and answers 204 at once.
    url: `/v1/stream/positions?addresses=${ADDRESS}&from_ledger=1&to_ledger=1`,
    auth: 'api_key',
    ok: 204,
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/activities/series',
    url: `/v1/users/${ADDRESS}/activities/series?interval=day`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/protocols/lendingprotocol/reserves',
    url: '/v1/protocols/lendingprotocol/reserves',
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/protocols/lendingprotocol/emissions',
    url: '/v1/protocols/lendingprotocol/emissions',
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/ammprotocol',
    url: `/v1/users/${ADDRESS}/positions/ammprotocol`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/ammprotocol/at/{ledger}',
    url: `/v1/users/${ADDRESS}/positions/ammprotocol/at/100`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/protocols/ammprotocol/pools/{pool}',
    url: '/v1/protocols/ammprotocol/pools/CAM7DY53G63XA4AJRS24Z6VFYAFSSF76C3RZ45BE5YU3FQS5255OOABP',
    auth: 'api_key',
    // This store has indexed no network, so it knows no pair.
    ok: 404,
  },
  {
    method: 'GET',
    path: '/v1/protocols/ammprotocol/reserves',
    url: '/v1/protocols/ammprotocol/reserves',
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/yieldprotocol',
    url: `/v1/users/${ADDRESS}/positions/yieldprotocol`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/users/{address}/positions/yieldprotocol/at/{ledger}',
    url: `/v1/users/${ADDRESS}/positions/yieldprotocol/at/100`,
    auth: 'api_key',
  },
  {
    method: 'GET',
    path: '/v1/protocols/yieldprotocol/pools/{pool}',
    url: '/v1/protocols/yieldprotocol/pools/CAM7DY53G63XA4AJRS24Z6VFYAFSSF76C3RZ45BE5YU3FQS5255OOABP',
    auth: 'api_key',
    // This store has indexed no network, so it knows no vault.
    ok: 404,
  },
  {
    method: 'GET',
    path: '/v1/protocols/yieldprotocol/reserves',
    url: '/v1/protocols/yieldprotocol/reserves',
    auth: 'api_key',
  },
]

describe('shared auth suite: every protected route', () => {
  let t: TestApp
  let user: SignedUp
  let key: string
  let revokedKey: string
  let expiringKey: string
  let scopelessKey: string

  beforeAll(async () => {
    t = await createTestApp({ ACCESS_TOKEN_TTL_S: '60' })
    user = await signUp(t.app)
    key = (await createKeyFor(t.app, user)).key
    const revoked = await createKeyFor(t.app, user)
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${revoked.api_key_id}`,
      headers: bearer(user.access_token),
    })
    revokedKey = revoked.key
    expiringKey = (await createKey(t.app, { expires_at: new Date(t.clock.now() + 30_000).toISOString() })).key
    scopelessKey = (await createKey(t.app, { scopes: [] })).key
  })
  afterAll(async () => t.close())

  const send = (route: ProtectedRoute, headers: Record<string, string>) =>
    t.app.inject({
      method: route.method,
      url: route.url,
      headers: route.body ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(route.body ? { payload: route.body } : {}),
    })

  const expect401 = async (route: ProtectedRoute, headers: Record<string, string>, label: string) => {
    const response = await send(route, headers)
    expect(response.statusCode, `${route.method} ${route.path} with ${label}: ${response.body}`).toBe(401)
    const body = response.json()
    expect(body.error.code).toBe('unauthorized')
    expect(typeof body.error.message).toBe('string')
    expect(body.meta.request_id).toBe(response.headers['x-request-id'])
    return body.error.message as string
  }

  /** A correctly shaped JWT signed with a secret the server does not know. */
  const forgedToken = () =>
    new SignJWT({ org: user.organization_id, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.user_id)
      .setIssuer('strata')
      .setAudience('strata-api')
      .setIssuedAt()
      .setJti('forged')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-server-secret-not-the-server-secret'))

  for (const route of ROUTES) {
    describe(`${route.method} ${route.path} (${route.auth})`, () => {
      it('refuses a request with no credential, naming the header it takes', async () => {
        const message = await expect401(route, {}, 'nothing')
        const header = { api_key: 'x-svc-token', bearer: 'authorization', admin: 'x-svc-admin-token' }[
          route.auth
        ]
        expect(message).toContain(header)
      })

      it('refuses credentials of the wrong type', async () => {
        if (route.auth !== 'api_key') await expect401(route, apiKey(key), 'an API key')
        if (route.auth !== 'bearer') await expect401(route, bearer(user.access_token), 'a bearer token')
        if (route.auth !== 'admin')
          await expect401(route, { 'x-svc-admin-token': ADMIN_TOKEN }, 'the admin token')
        if (route.auth === 'bearer') await expect401(route, bearer(user.refresh_token), 'a refresh token')
      })

      it('refuses malformed and unknown credentials', async () => {
        if (route.auth === 'api_key') {
          await expect401(route, apiKey('not-a-key'), 'garbage')
          await expect401(
            route,
            apiKey(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`),
            'a bad checksum',
          )
          await expect401(route, apiKey(generateApiKey()), 'an unknown well-formed key')
        }
        if (route.auth === 'bearer') {
          await expect401(route, { authorization: 'Basic dXNlcjpwYXNz' }, 'basic auth')
          await expect401(route, { authorization: 'Bearer' }, 'an empty bearer')
          await expect401(route, bearer('a.b.c'), 'a non-JWT')
          await expect401(route, bearer(await forgedToken()), 'a forged JWT')
        }
        if (route.auth === 'admin')
          await expect401(route, { 'x-svc-admin-token': `${ADMIN_TOKEN}x` }, 'a wrong token')
      })

      if (route.auth === 'api_key') {
        it('refuses revoked and expired keys, and answers 403 for a key without the scope', async () => {
          await expect401(route, apiKey(revokedKey), 'a revoked key')
          const expiresAt = t.clock.now()
          t.clock.advance(30_000)
          await expect401(route, apiKey(expiringKey), 'an expired key')
          t.clock.set(expiresAt)
          const response = await send(route, apiKey(scopelessKey))
          expect(response.statusCode).toBe(403)
          expect(response.json().error.code).toBe('insufficient_scope')
          expect((await send(route, apiKey(key))).statusCode).toBe(route.ok ?? 200)
        })
      }

      if (route.auth === 'bearer') {
        it('refuses an expired access token', async () => {
          const fresh = await t.app.inject({
            method: 'POST',
            url: '/v1/auth/login',
            headers: { 'content-type': 'application/json' },
            payload: { email: user.email, password: user.password },
          })
          const token = fresh.json().access_token as string
          const start = t.clock.now()
          t.clock.advance(61_000)
          await expect401(route, bearer(token), 'an expired access token')
          t.clock.set(start)
        })
      }
    })
  }

  it("acts only on the caller's organization", async () => {
    const other = await signUp(t.app)
    const otherKey = await createKeyFor(t.app, other)
    const org = (
      await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })
    ).json()
    expect(org.id).toBe(user.organization_id)
    const keys = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(user.access_token) })
    ).json()
    expect(keys.map((k: { id: string }) => k.id)).not.toContain(otherKey.api_key_id)
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/org/api-keys/${otherKey.api_key_id}`,
      headers: bearer(user.access_token),
    })
    expect(revoke.statusCode).toBe(404)
    const rotate = await t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${otherKey.api_key_id}/rotate`,
      headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
      payload: { old_key_expires_in_seconds: 60 },
    })
    expect(rotate.statusCode).toBe(404)
    expect(rotate.json().error.code).toBe('not_found')
    // Neither attempt touched the other organization's key: it still works, unrotated.
    const data = await t.app.inject({
      method: 'GET',
      url: `/v1/users/${ADDRESS}/positions/vaultprotocol`,
      headers: apiKey(otherKey.key),
    })
    expect(data.statusCode).toBe(200)
    const theirKeys = (
      await t.app.inject({ method: 'GET', url: '/v1/org/api-keys', headers: bearer(other.access_token) })
    ).json() as Array<{ id: string; expires_at: string | null; revoked: boolean }>
    expect(theirKeys.find((k) => k.id === otherKey.api_key_id)).toMatchObject({
      expires_at: null,
      revoked: false,
    })
    // Each audit log holds its own organization's events only.
    const auditOf = async (token: string) =>
      (
        (await t.app.inject({ method: 'GET', url: '/v1/org/audit-log', headers: bearer(token) })).json() as {
          data: Array<{ target: string | null }>
        }
      ).data.map((event) => event.target)
    const mine = await auditOf(user.access_token)
    const theirs = await auditOf(other.access_token)
    expect(mine).toContain(user.user_id)
    expect(mine).not.toContain(other.user_id)
    expect(mine).not.toContain(otherKey.api_key_id)
    expect(theirs).toContain(otherKey.api_key_id)
    expect(theirs).not.toContain(user.user_id)
  })

  it('covers every protected operation of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>
    }
    const protectedOps = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => (op.security ?? []).length > 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    expect(protectedOps.length).toBeGreaterThan(0)
    expect(protectedOps.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort())
  })
})
