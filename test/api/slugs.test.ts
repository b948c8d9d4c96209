import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { uniqueSlug } from '../support/factories.ts'
import { BAD_SLUGS } from '../support/slugs.ts'

const json = { 'content-type': 'application/json' }

describe('organization slugs: one rule, one wording', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  const signup = (slug: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      payload: {
        organization_name: 'Acme',
        organization_slug: slug,
        email: `${uniqueSlug()}@example.com`,
        password: 'long enough pw',
      },
    })

  it('refuses a bad slug at signup and at admin key creation with the same plain message', async () => {
    for (const [slug, words] of BAD_SLUGS) {
      const viaSignup = await signup(slug)
      const viaAdmin = await t.app.inject({
        method: 'POST',
        url: '/v1/org/api-keys',
        headers: { ...json, 'x-svc-admin-token': ADMIN_TOKEN },
        payload: { organization_name: 'Acme', organization_slug: slug, key_name: 'k' },
      })
      for (const response of [viaSignup, viaAdmin]) {
        expect(response.statusCode, slug).toBe(400)
        expect(response.json().error.details).toEqual([
          { field: 'organization_slug', message: `organization_slug ${words}` },
        ])
      }
    }
  })

  it('accepts the bounds themselves: 2 and 64 characters, inner hyphens', async () => {
    const longest = `a${'-b'.repeat(31)}c`
    expect(longest).toHaveLength(64)
    for (const slug of ['ab', longest]) expect((await signup(slug)).statusCode, slug).toBe(201)
  })
})
