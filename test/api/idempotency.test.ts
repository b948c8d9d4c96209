import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKeyFor, type SignedUp, signUp, uniqueSlug } from '../support/factories.ts'

const DATA_URL = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'
const DAY_MS = 24 * 60 * 60 * 1000

describe('the Idempotency-Key header on the requests that create a secret', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const createKey = (payload: Record<string, unknown>, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys',
      headers: {
        'x-svc-admin-token': ADMIN_TOKEN,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload,
    })
  const keyBody = (slug: string, extra: Record<string, unknown> = {}) => ({
    organization_name: 'Idem Org',
    organization_slug: slug,
    key_name: 'ci',
    ...extra,
  })
  const rotate = (user: SignedUp, id: string, key: string, payload: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${id}/rotate`,
      headers: { ...bearer(user.access_token), 'content-type': 'application/json', 'idempotency-key': key },
      payload,
    })
  const signup = (payload: Record<string, unknown>, key: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      payload,
      remoteAddress,
    })
  const keysOfSlug = async (slug: string) =>
    t.database.db
      .selectFrom('api_keys')
      .innerJoin('organizations', 'organizations.id', 'api_keys.organization_id')
      .select('api_keys.id')
      .where('organizations.slug', '=', slug)
      .execute()
  const auditCount = async (organizationId: string, action: string) =>
    (
      await t.database.db
        .selectFrom('audit_events')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('action', '=', action)
        .execute()
    ).length

  it('replays the first answer byte for byte and creates nothing twice', async () => {
    const slug = uniqueSlug('idem')
    const key = randomUUID()
    const first = await createKey(keyBody(slug), key)
    expect(first.statusCode, first.body).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    // The same fields in another order are the same request.
    const { key_name, organization_slug, organization_name } = keyBody(slug)
    const again = await createKey({ key_name, organization_slug, organization_name }, key)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.headers['content-type']).toBe(first.headers['content-type'])
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true)
    const keys = await keysOfSlug(slug)
    expect(keys.map((k) => k.id)).toEqual([first.json().api_key_id])
    expect(await auditCount(first.json().organization_id, 'api_key.created')).toBe(1)
    expect(await auditCount(first.json().organization_id, 'organization.created')).toBe(1)
    // The replayed key is the one that works.
    const data = await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(again.json().key) })
    expect(data.statusCode).toBe(200)
    // Without the header each request creates a key, as before.
    expect((await createKey(keyBody(slug))).statusCode).toBe(201)
    expect(await keysOfSlug(slug)).toHaveLength(2)
  })

  it('refuses the same key for another request with 422, creating nothing', async () => {
    const slug = uniqueSlug('idem')
    const key = randomUUID()
    expect((await createKey(keyBody(slug), key)).statusCode).toBe(201)
    const other = await createKey(keyBody(slug, { key_name: 'another' }), key)
    expect(other.statusCode).toBe(422)
    expect(other.json().error.code).toBe('idempotency_key_reused')
    expect(other.json().error.message).toMatch(/Idempotency-Key/)
    expect(other.headers['idempotent-replayed']).toBeUndefined()
    expect(await keysOfSlug(slug)).toHaveLength(1)
  })

  it('runs exactly one of concurrent requests with one key', async () => {
    const slug = uniqueSlug('idem')
    const key = randomUUID()
    const answers = await Promise.all(Array.from({ length: 6 }, () => createKey(keyBody(slug), key)))
    const ran = answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined)
    expect(ran).toHaveLength(1)
    for (const answer of answers) {
      if (answer.statusCode === 409) {
        expect(answer.json().error.code).toBe('conflict')
        expect(answer.json().error.message).toMatch(/still running/)
        expect(answer.headers['retry-after']).toBe('1')
      } else {
        expect(answer.statusCode).toBe(201)
        expect(answer.body).toBe(ran[0]?.body)
      }
    }
    expect(await keysOfSlug(slug)).toHaveLength(1)
    // Once it has answered, a retry replays it.
    const retry = await createKey(keyBody(slug), key)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toBe(ran[0]?.body)
  })

  it("does not replay another organization's answer to the same key", async () => {
    const alice = await signUp(t.app)
    const bob = await signUp(t.app)
    const key = randomUUID()
    const ofAlice = await rotate(alice, alice.api_key.api_key_id, key)
    expect(ofAlice.statusCode, ofAlice.body).toBe(201)
    // Bob sending Alice's very request (her key id, her Idempotency-Key) runs it as his own: 404.
    const sameAsAlice = await rotate(bob, alice.api_key.api_key_id, key)
    expect(sameAsAlice.statusCode).toBe(404)
    expect(sameAsAlice.headers['idempotent-replayed']).toBeUndefined()
    expect(sameAsAlice.body).not.toContain(ofAlice.json().key)
    // Bob's own rotation with Alice's key runs (neither her answer nor a 422 for her request).
    const ofBob = await rotate(bob, bob.api_key.api_key_id, key)
    expect(ofBob.statusCode, ofBob.body).toBe(201)
    expect(ofBob.headers['idempotent-replayed']).toBeUndefined()
    expect(ofBob.json().organization_id).toBe(bob.organization_id)
    expect(ofBob.json().key).not.toBe(ofAlice.json().key)
    // Alice's retry still gets her own answer.
    const aliceAgain = await rotate(alice, alice.api_key.api_key_id, key)
    expect(aliceAgain.headers['idempotent-replayed']).toBe('true')
    expect(aliceAgain.body).toBe(ofAlice.body)
  })

  it('lets a rotation whose answer was lost be retried: one new key, the old one refused', async () => {
    const user = await signUp(t.app)
    const old = await createKeyFor(t.app, user, { key_name: 'billing sync' })
    const key = randomUUID()
    const lost = await rotate(user, old.api_key_id, key, { old_key_expires_in_seconds: 0 })
    expect(lost.statusCode, lost.body).toBe(201)
    // Without the header the retry is refused: the key was rotated already.
    const plain = await t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${old.api_key_id}/rotate`,
      headers: { ...bearer(user.access_token), 'content-type': 'application/json' },
      payload: {},
    })
    expect(plain.statusCode).toBe(409)
    // With it the client gets the answer it lost, a minute later, and the key in it works.
    t.clock.advance(60_000)
    const retried = await rotate(user, old.api_key_id, key, { old_key_expires_in_seconds: 0 })
    expect(retried.statusCode).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBe('true')
    expect(retried.body).toBe(lost.body)
    const fresh = retried.json().key as string
    expect((await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(fresh) })).statusCode).toBe(
      200,
    )
    expect((await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(old.key) })).statusCode).toBe(
      401,
    )
    const listed = await t.app.inject({
      method: 'GET',
      url: '/v1/org/api-keys',
      headers: bearer(user.access_token),
    })
    // The signup key, the rotated key and the one new key.
    expect(listed.json()).toHaveLength(3)
    expect(await auditCount(user.organization_id, 'api_key.rotated')).toBe(1)
  })

  it('replays a signup only to the same address, and the same body (password included)', async () => {
    const slug = uniqueSlug('idem')
    const body = {
      organization_name: 'Idem',
      organization_slug: slug,
      email: `${slug}@example.com`,
      password: 'pw-0123456789ab',
    }
    const key = randomUUID()
    const first = await signup(body, key, '10.0.0.1')
    expect(first.statusCode, first.body).toBe(201)
    const replay = await signup(body, key, '10.0.0.1')
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.body).toBe(first.body)
    const users = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', first.json().organization_id)
      .execute()
    expect(users).toHaveLength(1)
    expect(await auditCount(first.json().organization_id, 'organization.created')).toBe(1)
    // Another address with the same key runs the signup: the slug is taken by then.
    const elsewhere = await signup(body, key, '10.0.0.2')
    expect(elsewhere.statusCode).toBe(409)
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined()
    // Another password with the same key is another request.
    const guessed = await signup({ ...body, password: 'pw-guessed-0000' }, key, '10.0.0.1')
    expect(guessed.statusCode).toBe(422)
    expect(guessed.body).not.toContain(first.json().api_key.key)
  })

  it('keeps no failed answer: the key can be used again at once', async () => {
    const user = await signUp(t.app)
    const key = randomUUID()
    // A slug taken by signup needs reuse_signup_organization: 409, which is not kept.
    const refused = await createKey(keyBody(user.organization_slug), key)
    expect(refused.statusCode).toBe(409)
    const again = await createKey(keyBody(user.organization_slug), key)
    expect(again.statusCode).toBe(409)
    expect(again.headers['idempotent-replayed']).toBeUndefined()
    const fixed = await createKey(keyBody(user.organization_slug, { reuse_signup_organization: true }), key)
    expect(fixed.statusCode, fixed.body).toBe(201)
    expect(fixed.headers['idempotent-replayed']).toBeUndefined()
    expect(await keysOfSlug(user.organization_slug)).toHaveLength(2)
  })

  it('keeps an answer 24 hours: after that the same request runs again', async () => {
    const slug = uniqueSlug('idem')
    const key = randomUUID()
    const first = await createKey(keyBody(slug), key)
    expect(first.statusCode).toBe(201)
    t.clock.advance(DAY_MS - 1)
    const within = await createKey(keyBody(slug), key)
    expect(within.headers['idempotent-replayed']).toBe('true')
    expect(within.body).toBe(first.body)
    t.clock.advance(1)
    const after = await createKey(keyBody(slug), key)
    expect(after.statusCode).toBe(201)
    expect(after.headers['idempotent-replayed']).toBeUndefined()
    expect(after.json().api_key_id).not.toBe(first.json().api_key_id)
    expect(await keysOfSlug(slug)).toHaveLength(2)
  })

  it('runs a retry in place of a request that died holding the key, once it is a minute old', async () => {
    const slug = uniqueSlug('idem')
    const key = randomUUID()
    const first = await createKey(keyBody(slug), key)
    expect(first.statusCode).toBe(201)
    // As if the process had stopped after creating the key but before keeping its answer.
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ response: null })
      .where('response', 'is not', null)
      .execute()
    const early = await createKey(keyBody(slug), key)
    expect(early.statusCode).toBe(409)
    t.clock.advance(60_000)
    const retried = await createKey(keyBody(slug), key)
    expect(retried.statusCode).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
    expect(await keysOfSlug(slug)).toHaveLength(2)
    const replayed = await createKey(keyBody(slug), key)
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(replayed.body).toBe(retried.body)
  })

  it('stores neither the secret nor the Idempotency-Key in readable form', async () => {
    const slug = uniqueSlug('idem')
    const key = `lost-answer-${randomUUID()}`
    const first = await createKey(keyBody(slug), key)
    expect(first.statusCode).toBe(201)
    const created = first.json()
    const rows = await t.database.db.selectFrom('idempotency_keys').selectAll().execute()
    expect(rows.length).toBeGreaterThan(0)
    const stored = JSON.stringify(rows)
    const secret = created.key as string
    for (const needle of [secret, secret.slice(12), created.api_key_id, key, slug]) {
      expect(stored).not.toContain(needle)
    }
    // Nor in another encoding of its bytes.
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      expect(stored).not.toContain(Buffer.from(secret).toString(encoding).slice(0, 24))
    }
    // Every row holds a sealed answer or none (a request still running).
    for (const row of rows) {
      expect(row.lookup).toMatch(/^[0-9a-f]{64}$/)
      if (row.response !== null) expect(row.response).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    }
  })

  it('refuses a malformed Idempotency-Key with a 400 naming the header', async () => {
    for (const [value, words] of [
      ['x'.repeat(256), /at most 255 characters/],
      ['tab\there', /printable ASCII/],
    ] as const) {
      const response = await createKey(keyBody(uniqueSlug('idem')), value)
      expect(response.statusCode).toBe(400)
      expect(response.json().error.code).toBe('invalid_request')
      expect(response.json().error.details).toEqual([
        { field: 'idempotency-key', message: expect.stringMatching(words) },
      ])
    }
    expect((await createKey(keyBody(uniqueSlug('idem')), 'x'.repeat(255))).statusCode).toBe(201)
  })

  it('documents the header, 409 and 422 on each operation that creates a secret', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    for (const [path, method] of [
      ['/v1/org/api-keys', 'post'],
      ['/v1/org/api-keys/{id}/rotate', 'post'],
      ['/v1/auth/signup', 'post'],
    ] as const) {
      const operation = document.paths[path][method]
      const header = operation.parameters.find((p: { name: string }) => p.name === 'idempotency-key')
      expect(header, path).toMatchObject({ in: 'header', required: false, schema: { maxLength: 255 } })
      expect(operation.description).toMatch(/Idempotency-Key/)
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['409', '422']))
    }
    const login = document.paths['/v1/auth/login'].post
    expect((login.parameters ?? []).some((p: { name: string }) => p.name === 'idempotency-key')).toBe(false)
  })
})

describe('the signup throttle and the Idempotency-Key', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ SIGNUP_ATTEMPTS_PER_WINDOW: '1' })
  })
  afterAll(async () => t.close())

  it('counts before the key is claimed: a throttled request writes nothing, a retry counts too', async () => {
    const signup = (slug: string, key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        payload: {
          organization_name: 'Idem',
          organization_slug: slug,
          email: `${slug}@example.com`,
          password: 'pw-0123456789ab',
        },
      })
    const slug = uniqueSlug('idem')
    const key = randomUUID()
    expect((await signup(slug, key)).statusCode).toBe(201)
    const rows = async () =>
      (await t.database.db.selectFrom('idempotency_keys').select('lookup').execute()).length
    expect(await rows()).toBe(1)
    const throttled = await signup(uniqueSlug('idem'), randomUUID())
    expect(throttled.statusCode).toBe(429)
    expect(await rows()).toBe(1)
    const retry = await signup(slug, key)
    expect(retry.statusCode).toBe(429)
    expect(retry.headers['idempotent-replayed']).toBeUndefined()
  })
})
