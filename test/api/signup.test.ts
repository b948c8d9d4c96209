import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKey, signUp, uniqueSlug } from '../support/factories.ts'

const json = { 'content-type': 'application/json' }
const DATA_URL = '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions/vaultprotocol'

describe('signup', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const signup = (slug: string, email = `${uniqueSlug()}@example.com`) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      payload: { organization_name: 'Acme', organization_slug: slug, email, password: 'long enough pw' },
    })

  it("returns the organization's first API key, which calls a data endpoint at once", async () => {
    const slug = uniqueSlug()
    const response = await signup(slug)
    expect(response.statusCode).toBe(201)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(
      [
        'access_token',
        'api_key',
        'expires_in',
        'organization_id',
        'organization_slug',
        'refresh_token',
        'user_id',
      ].sort(),
    )
    expect(body.api_key).toMatchObject({
      organization_id: body.organization_id,
      organization_slug: slug,
      organization_reused: false,
      scopes: ['data:read'],
      expires_at: null,
    })
    expect(body.api_key.key).toMatch(/^strata_[0-9A-Za-z]{49}$/)
    expect(body.api_key.key_prefix).toBe(body.api_key.key.slice(0, 12))
    const data = await t.app.inject({ method: 'GET', url: DATA_URL, headers: apiKey(body.api_key.key) })
    expect(data.statusCode).toBe(200)
    const keys = await t.app.inject({
      method: 'GET',
      url: '/v1/org/api-keys',
      headers: bearer(body.access_token),
    })
    expect(keys.json()).toMatchObject([{ id: body.api_key.api_key_id, name: 'default', revoked: false }])
  })

  it('refuses reserved slugs with 409 naming the slug, creating nothing', async () => {
    for (const slug of ['admin', 'api', 'strata', 'www', 'support']) {
      const response = await signup(slug)
      expect(response.statusCode, slug).toBe(409)
      expect(response.json().error.code).toBe('conflict')
      expect(response.json().error.message).toContain(`"${slug}" is reserved`)
      expect(response.json().error.details).toEqual([
        { field: 'organization_slug', message: `organization_slug "${slug}" is reserved` },
      ])
    }
    const made = await t.database.db
      .selectFrom('organizations')
      .select('slug')
      .where('slug', 'in', ['admin', 'api', 'strata', 'www', 'support'])
      .execute()
    expect(made).toEqual([])
  })
})

describe('slug squatting: an admin key for a slug taken by signup', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const adminCreate = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys',
      headers: { ...json, 'x-svc-admin-token': ADMIN_TOKEN },
      payload: { organization_name: 'Acme Inc', key_name: 'issued by ops', ...payload },
    })

  it('is 409 naming the slug, creating no key, unless the operator opts in', async () => {
    const squatter = await signUp(t.app)
    const refused = await adminCreate({ organization_slug: squatter.organization_slug })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error.code).toBe('conflict')
    expect(refused.json().error.message).toContain(`"${squatter.organization_slug}"`)
    expect(refused.json().error.message).toContain('reuse_signup_organization')
    expect(refused.json().error.details[0].field).toBe('organization_slug')
    const keys = await t.database.db
      .selectFrom('api_keys')
      .select('id')
      .where('organization_id', '=', squatter.organization_id)
      .execute()
    expect(keys.map((k) => k.id)).toEqual([squatter.api_key.api_key_id])

    const declined = await adminCreate({
      organization_slug: squatter.organization_slug,
      reuse_signup_organization: false,
    })
    expect(declined.statusCode).toBe(409)

    const meant = await adminCreate({
      organization_slug: squatter.organization_slug,
      reuse_signup_organization: true,
    })
    expect(meant.statusCode).toBe(201)
    expect(meant.json()).toMatchObject({
      organization_id: squatter.organization_id,
      organization_reused: true,
    })
  })

  it('reuses an organization the operator created without any opt-in', async () => {
    const slug = uniqueSlug()
    const first = await createKey(t.app, { organization_slug: slug })
    const second = await adminCreate({ organization_slug: slug })
    expect(second.statusCode).toBe(201)
    expect(second.json()).toMatchObject({ organization_id: first.organization_id, organization_reused: true })
  })

  it('records how each organization was created', async () => {
    const byAdmin = await createKey(t.app)
    const bySignup = await signUp(t.app)
    const rows = await t.database.db
      .selectFrom('organizations')
      .select(['id', 'created_by', 'max_plan'])
      .where('id', 'in', [byAdmin.organization_id, bySignup.organization_id])
      .execute()
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.created_by, r.max_plan]]))).toEqual({
      [byAdmin.organization_id]: ['admin', 'free'],
      [bySignup.organization_id]: ['signup', 'free'],
    })
  })
})
