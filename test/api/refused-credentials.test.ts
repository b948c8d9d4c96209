import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/auth/api-key.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { TEST_DB_KIND } from '../support/database.ts'
import { apiKey, createKey } from '../support/factories.ts'

const URL = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'
const LIMIT = 3
const WINDOW_S = 300

describe(`refused credentials are throttled per client address (${TEST_DB_KIND})`, () => {
  let t: TestApp
  let lookups = 0
  let views = 0
  beforeAll(async () => {
    t = await createTestApp({
      REFUSED_CREDENTIALS_PER_WINDOW: String(LIMIT),
      LOGIN_WINDOW_S: String(WINDOW_S),
    })
    // Count what reaches the store: the key lookups and the request views (one statement each).
    const lookup = t.ctx.lookupApiKey
    t.ctx.lookupApiKey = (hash) => {
      lookups++
      return lookup(hash)
    }
    const requestViews = t.ctx.caches.requestViews
    t.ctx.caches.requestViews = (seek) => {
      views++
      return requestViews(seek)
    }
    // The start of a window, so the test cannot straddle two.
    t.clock.set(Math.ceil(t.clock.now() / (WINDOW_S * 1000)) * WINDOW_S * 1000)
  })
  afterAll(async () => t.close())

  const get = (key: string | undefined, from: string) =>
    t.app.inject({
      method: 'GET',
      url: URL,
      headers: key === undefined ? {} : apiKey(key),
      remoteAddress: from,
    })

  it('answers 429 with Retry-After, before reading anything, once an address has spent its refusals', async () => {
    const { key } = await createKey(t.app)
    const guesser = '192.0.2.10'
    for (let i = 0; i < LIMIT; i++) {
      const refused = await get(generateApiKey(), guesser)
      expect(refused.statusCode).toBe(401)
      expect(refused.json().error.code).toBe('unauthorized')
    }
    t.clock.advance(100_000)
    const [lookupsBefore, viewsBefore] = [lookups, views]
    const limited = await get(generateApiKey(), guesser)
    expect(limited.statusCode).toBe(429)
    expect(limited.json().error.code).toBe('rate_limited')
    expect(limited.json().error.message).toBe(
      'too many refused credentials from this address; try again in 200 s',
    )
    expect(limited.headers['retry-after']).toBe('200')
    // Even a valid key is refused from that address until the window ends, and nothing is read.
    expect((await get(key, guesser)).statusCode).toBe(429)
    expect([lookups, views]).toEqual([lookupsBefore, viewsBefore])

    // Another address is not concerned.
    expect((await get(key, '192.0.2.11')).statusCode).toBe(200)
    // The window ends: the address is served again.
    t.clock.advance(200_000)
    expect((await get(key, guesser)).statusCode).toBe(200)
  })

  it('counts every kind of presented credential it refuses, and not a missing one', async () => {
    const { key } = await createKey(t.app)
    const forgetful = '192.0.2.20'
    for (let i = 0; i < LIMIT + 2; i++) expect((await get(undefined, forgetful)).statusCode).toBe(401)
    expect((await get(key, forgetful)).statusCode).toBe(200)

    const mixed = '192.0.2.21'
    const refusals = [
      await get('strata_malformed', mixed),
      await t.app.inject({
        method: 'GET',
        url: '/v1/org',
        headers: { authorization: 'Bearer not-a-token' },
        remoteAddress: mixed,
      }),
      await t.app.inject({
        method: 'POST',
        url: '/v1/org/api-keys',
        headers: { 'x-svc-admin-token': 'not-the-admin-token-at-all', 'content-type': 'application/json' },
        payload: {},
        remoteAddress: mixed,
      }),
    ]
    expect(refusals.map((r) => r.statusCode)).toEqual([401, 401, 401])
    expect((await get(key, mixed)).statusCode).toBe(429)
  })
})
