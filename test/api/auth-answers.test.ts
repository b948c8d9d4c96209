import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'
import { bearer, signUp, uniqueSlug } from '../support/factories.ts'

const json = { 'content-type': 'application/json' }

describe('which emails are registered: signup says so, within its throttle; login never does', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({}, { signupAttemptsPerWindow: 3, signupWindowS: 3600 })
  })
  afterAll(async () => t.close())

  const signup = (email: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      remoteAddress: ip,
      payload: {
        organization_name: 'Acme',
        organization_slug: uniqueSlug(),
        email,
        password: 'long enough pw',
      },
    })

  it('answers a taken email with 409 naming the field and the way out, and counts it in the throttle', async () => {
    const user = await signUp(t.app)
    const taken = await signup(user.email.toUpperCase(), '203.0.113.10')
    expect(taken.statusCode).toBe(409)
    expect(taken.json().error).toMatchObject({
      code: 'conflict',
      message:
        'a user with this email exists already; log in (POST /v1/auth/login) or sign up with another email',
      details: [{ field: 'email', message: 'email belongs to an existing user' }],
    })
    // Two more tests of emails from that address, then it is refused before anything is looked up:
    // a taken and a free email get the same 429.
    expect((await signup(`${uniqueSlug()}@example.com`, '203.0.113.10')).statusCode).toBe(201)
    expect((await signup(user.email, '203.0.113.10')).statusCode).toBe(409)
    for (const email of [user.email, `${uniqueSlug()}@example.com`]) {
      const refused = await signup(email, '203.0.113.10')
      expect(refused.statusCode).toBe(429)
      expect(refused.json().error.code).toBe('rate_limited')
    }
  })

  it('login answers an unknown email exactly as a wrong password', async () => {
    const user = await signUp(t.app)
    const login = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        headers: json,
        payload: { email, password: 'not it at all' },
      })
    const unknown = await login(`${uniqueSlug()}@example.com`)
    const wrong = await login(user.email)
    expect(unknown.statusCode).toBe(401)
    expect(wrong.statusCode).toBe(401)
    expect(unknown.json().error).toEqual(wrong.json().error)
  })
})

describe('logout: the refresh token is revoked, the access token lives to its expiry, as documented', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('leaves an issued access token valid until its exp, and says so in the OpenAPI document', async () => {
    const user = await signUp(t.app)
    const logout = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { ...json, ...bearer(user.access_token) },
      payload: { refresh_token: user.refresh_token },
    })
    expect(logout.statusCode).toBe(204)
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: json,
      payload: { refresh_token: user.refresh_token },
    })
    expect(refresh.statusCode).toBe(401)
    const org = () => t.app.inject({ method: 'GET', url: '/v1/org', headers: bearer(user.access_token) })
    // 900 s is the default ACCESS_TOKEN_TTL_S, the signup answer's expires_in.
    expect(user.expires_in).toBe(900)
    t.clock.advance(899_000)
    expect((await org()).statusCode).toBe(200)
    t.clock.advance(1000)
    expect((await org()).statusCode).toBe(401)

    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    const description: string = doc.paths['/v1/auth/logout'].post.description
    expect(description).toContain('Access tokens are not revoked')
    expect(description).toContain('stays valid until its `exp`')
  })
})
