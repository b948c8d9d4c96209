import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'
import { bearer, signUp, uniqueSlug } from '../support/factories.ts'

const json = { 'content-type': 'application/json' }

describe('signup, login, refresh, logout', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ ACCESS_TOKEN_TTL_S: '2', LOGIN_ATTEMPTS_PER_WINDOW: '5' })
  })
  afterAll(async () => t.close())

  const refresh = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: json,
      payload: { refresh_token: token },
    })

  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/v1/auth/login', headers: json, payload: { email, password } })

  it('signs up an organization with its first user and logs it in', async () => {
    const slug = uniqueSlug()
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      payload: {
        organization_name: 'Acme',
        organization_slug: slug,
        email: `Ops@${slug}.example.com`,
        password: 'correct horse battery',
      },
    })
    expect(response.statusCode).toBe(201)
    const body = response.json()
    expect(body.organization_slug).toBe(slug)
    expect(body.expires_in).toBe(2)
    const claims = decodeJwt(body.access_token)
    expect(claims).toMatchObject({
      sub: body.user_id,
      org: body.organization_id,
      typ: 'access',
      iss: 'strata',
      aud: 'strata-api',
    })
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(2)
    expect(decodeJwt(body.refresh_token).typ).toBe('refresh')
    // Email is case-insensitive.
    expect((await login(`ops@${slug}.example.com`, 'correct horse battery')).statusCode).toBe(200)
  })

  it('answers 409 for a taken slug or email, creating nothing', async () => {
    const user = await signUp(t.app)
    const before = await t.database.db.selectFrom('organizations').select('id').execute()
    const takenSlug = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      payload: {
        organization_name: 'x',
        organization_slug: user.organization_slug,
        email: `new-${uniqueSlug()}@example.com`,
        password: 'long enough pw',
      },
    })
    expect(takenSlug.statusCode).toBe(409)
    expect(takenSlug.json().error.code).toBe('conflict')
    const takenEmail = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      payload: {
        organization_name: 'x',
        organization_slug: uniqueSlug(),
        email: user.email.toUpperCase(),
        password: 'long enough pw',
      },
    })
    expect(takenEmail.statusCode).toBe(409)
    const after = await t.database.db.selectFrom('organizations').select('id').execute()
    expect(after.length).toBe(before.length)
  })

  it('gives the same 401 for an unknown email and a wrong password', async () => {
    const user = await signUp(t.app)
    const wrongPassword = await login(user.email, 'not the password')
    const unknownEmail = await login(`nobody-${uniqueSlug()}@example.com`, 'not the password')
    expect(wrongPassword.statusCode).toBe(401)
    expect(unknownEmail.statusCode).toBe(401)
    expect(wrongPassword.json().error).toEqual(unknownEmail.json().error)
  })

  it('expires access tokens after expires_in seconds; refresh gives a new one without logging in', async () => {
    const user = await signUp(t.app)
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })).statusCode,
    ).toBe(200)
    t.clock.advance(2_001)
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })).statusCode,
    ).toBe(401)
    const refreshed = await refresh(user.refresh_token)
    expect(refreshed.statusCode).toBe(200)
    expect(Object.keys(refreshed.json()).sort()).toEqual(['access_token', 'expires_in'])
    const org = await t.app.inject({
      method: 'GET',
      url: '/v1/org',
      headers: bearer(refreshed.json().access_token),
    })
    expect(org.statusCode).toBe(200)
    expect(org.json().id).toBe(user.organization_id)
  })

  it('never accepts an access token as a refresh token', async () => {
    const user = await signUp(t.app)
    const response = await refresh(user.access_token)
    expect(response.statusCode).toBe(401)
  })

  it('logout revokes the refresh token', async () => {
    const user = await signUp(t.app)
    const logout = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/auth/logout',
        headers: { ...json, ...bearer(user.access_token) },
        payload: { refresh_token: user.refresh_token },
      })
    expect((await logout()).statusCode).toBe(204)
    expect((await logout()).statusCode).toBe(204)
    const refused = await refresh(user.refresh_token)
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error.message).toContain('revoked')
  })

  it('throttles login attempts per email with 429 and Retry-After', async () => {
    const user = await signUp(t.app)
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await login(user.email, 'wrong password')).statusCode)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    const limited = await login(user.email, user.password)
    expect(limited.statusCode).toBe(429)
    expect(limited.json().error.code).toBe('rate_limited')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    // Another email is not affected.
    const other = await signUp(t.app)
    expect((await login(other.email, other.password)).statusCode).toBe(200)
  })
})
