import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { bearer, signUp, uniqueSlug } from '../support/factories.ts'

/** A schema as the OpenAPI document writes it, as far as this walk needs. */
interface Schema {
  $ref?: string
  properties?: Record<string, Schema>
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
}

interface OpenApi {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >
  components?: { schemas?: Record<string, Schema> }
}

const SECRET_FIELDS = ['api_key', 'access_token', 'refresh_token', 'secret', 'key']

/** The secret fields a schema answers, following references, nested objects, arrays and unions. */
function secretFieldsOf(schema: Schema | undefined, doc: OpenApi, seen = new Set<Schema>()): string[] {
  if (schema === undefined || seen.has(schema)) return []
  seen.add(schema)
  if (schema.$ref) {
    const name = schema.$ref.split('/').at(-1) as string
    return secretFieldsOf(doc.components?.schemas?.[name], doc, seen)
  }
  const found: string[] = []
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (SECRET_FIELDS.includes(name)) found.push(name)
    found.push(...secretFieldsOf(field, doc, seen))
  }
  for (const part of [
    schema.items,
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    found.push(...secretFieldsOf(part, doc, seen))
  }
  return found
}

/** Every operation of the document whose responses carry a secret field, as `METHOD /path`. */
function credentialOperations(doc: OpenApi): string[] {
  const operations: string[] = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const schemas = Object.values(operation.responses ?? {}).flatMap((response) =>
        Object.values(response.content ?? {}).map((media) => media.schema),
      )
      if (schemas.some((schema) => secretFieldsOf(schema, doc).length > 0)) {
        operations.push(`${method.toUpperCase()} ${path}`)
      }
    }
  }
  return operations.sort()
}

describe('response headers', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('every answer says nosniff: a success, a refusal, an unknown route, a malformed URL', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/v1/health' }),
      t.app.inject({ method: 'GET', url: '/v1/org' }),
      t.app.inject({ method: 'GET', url: '/v1/nowhere' }),
      t.app.inject({ method: 'GET', url: '/v1/users/%E0%A4%A/positions' }),
      t.app.inject({ method: 'GET', url: '/v1/openapi.json' }),
    ])
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 400, 200])
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff')
    // JSON answers are not cached as credentials and carry no page policy.
    expect(answers[0]?.headers['cache-control']).toBeUndefined()
    expect(answers[0]?.headers['content-security-policy']).toBeUndefined()
  })

  it('the reference page runs only its own scripts, loads only from this server, and is framed nowhere', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/v1/docs' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['x-frame-options']).toBe('DENY')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    const csp = String(page.headers['content-security-policy'])
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/)
        return [name, values.join(' ')]
      }),
    )
    // The hash of the one inline script the page runs (a data block is not run), computed here
    // from the page as served.
    const inline = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string)
    expect(inline).toHaveLength(1)
    const hash = createHash('sha256')
      .update(inline[0] as string)
      .digest('base64')
    expect(directives).toEqual({
      'default-src': "'none'",
      'script-src': `'self' 'sha256-${hash}'`,
      'style-src': "'self' 'unsafe-inline'",
      'connect-src': "'self'",
      'img-src': "'self' data:",
      'font-src': "'self' data:",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    })
    // No inline handler or style attribute, no frame, nothing from another origin.
    expect(page.body).not.toMatch(/\sstyle=|\son[a-z]+=|<iframe|<object|<embed/i)
    expect(page.body).not.toMatch(/(href|src|action)="(https?:)?\/\//i)
  })

  it('the OpenAPI operations that answer a secret are exactly the credential routes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as OpenApi
    expect(credentialOperations(doc)).toEqual([
      'POST /v1/auth/login',
      'POST /v1/auth/refresh',
      'POST /v1/auth/signup',
      'POST /v1/org/api-keys',
      'POST /v1/org/api-keys/new',
      'POST /v1/org/api-keys/{id}/rotate',
      'POST /v1/webhooks',
      'POST /v1/webhooks/{id}/rotate-secret',
    ])
  })

  it('every answer of an operation that answers a secret says no-store, refusals included', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as OpenApi
    for (const operation of credentialOperations(doc)) {
      const [method = '', path = ''] = operation.split(' ')
      const answer = await t.app.inject({
        method: method as 'POST',
        url: path.replace('{id}', 'nokey'),
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      })
      expect(answer.statusCode, operation).toBeGreaterThanOrEqual(400)
      expect(answer.headers['cache-control'], operation).toBe('no-store')
      expect(answer.headers.pragma, operation).toBe('no-cache')
    }
  })

  it('signup, login, refresh, key creation and rotation answer their secrets with no-store', async () => {
    const json = { 'content-type': 'application/json' }
    const slug = uniqueSlug('nostore')
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: json,
      payload: {
        organization_name: 'No store',
        organization_slug: slug,
        email: `${slug}@example.com`,
        password: 'pw-0123456789abcdef',
      },
    })
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: json,
      payload: { email: `${slug}@example.com`, password: 'pw-0123456789abcdef' },
    })
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/refresh',
      headers: json,
      payload: { refresh_token: login.json().refresh_token },
    })
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys',
      headers: { ...json, 'x-svc-admin-token': ADMIN_TOKEN },
      payload: {
        organization_name: 'No store admin',
        organization_slug: uniqueSlug('nostore'),
        key_name: 'k',
      },
    })
    const user = await signUp(t.app)
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v1/org/api-keys/${user.api_key.api_key_id}/rotate`,
      headers: { ...json, ...bearer(user.access_token) },
      payload: {},
    })
    const own = await t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys/new',
      headers: { ...json, ...bearer(user.access_token) },
      payload: { name: 'own' },
    })
    const answers = { signup, login, refresh, created, rotated, own }
    expect(Object.values(answers).map((a) => a.statusCode)).toEqual([201, 200, 200, 201, 201, 201])
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers['cache-control'], name).toBe('no-store')
      expect(answer.headers.pragma, name).toBe('no-cache')
    }
    // A route that answers no secret is not marked.
    const keys = await t.app.inject({
      method: 'GET',
      url: '/v1/org/api-keys',
      headers: bearer(user.access_token),
    })
    expect(keys.statusCode).toBe(200)
    expect(keys.headers['cache-control']).toBeUndefined()
  })
})
