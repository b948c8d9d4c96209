import { StrKey } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKey, signUp } from '../support/factories.ts'

/**
 * Every 400 in plain words (docs/api.md, "Grammar", rule 9): for every route of the OpenAPI
 * document, invalid inputs derived from its own schema (an unknown query parameter, a value
 * outside a parameter's pattern or choices, a body field of the wrong type, out of range, too
 * long, of no allowed value, unknown, or missing) must be refused with a 400 whose message and
 * details say what the field must be, never in the validator's wording.
 */

interface JsonSchema {
  type?: string | string[]
  format?: string
  pattern?: string
  enum?: unknown[]
  const?: unknown
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  minProperties?: number
  items?: JsonSchema
  anyOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
}

interface Operation {
  parameters?: Array<{ name: string; in: string; schema: JsonSchema }>
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  security?: Array<Record<string, string[]>>
}

/** What the validator says in its own words, and what a message must never contain. */
const JARGON = [
  /must NOT/,
  /must match/,
  /equal to one of the allowed values/,
  /equal to constant/,
  /accepted forms?/,
  /required property/,
  /additional propert/,
  /must be (string|integer|number|boolean|object|array|null)\b/,
  /must be [<>]=?/,
  /must pass "/,
  /\/(body|querystring|params|headers)\b/,
  /#\//,
  /\bquerystring\b/,
  /\bis invalid\b/,
]

const ACCOUNT = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'
const CONTRACT = StrKey.encodeContract(Buffer.alloc(32, 7))
const HASH = 'a'.repeat(64)

/** A value the schema accepts, for the fields a case leaves alone. */
function validValue(name: string, schema: JsonSchema): unknown {
  if (schema.anyOf) return validValue(name, schema.anyOf.find((b) => b.type !== 'null') ?? schema.anyOf[0]!)
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  const type = [schema.type].flat()[0]
  if (type === 'integer' || type === 'number') return schema.minimum ?? 0
  if (type === 'boolean') return false
  if (type === 'array') return []
  if (schema.format === 'email') return `${name}-${Math.random().toString(36).slice(2)}@example.com`
  if (schema.format === 'slug') return `s-${Math.random().toString(36).slice(2, 10)}`
  if (schema.format === 'date-time') return '2099-01-01T00:00:00Z'
  return 'x'.repeat(Math.max(schema.minLength ?? 1, 1))
}

/** Values the schema refuses, each with what it tries. */
function invalidValues(schema: JsonSchema): unknown[] {
  const out: unknown[] = []
  const types = new Set([schema.type ?? []].flat())
  for (const branch of schema.anyOf ?? []) for (const t of [branch.type ?? []].flat()) types.add(t)
  if (!types.has('string')) out.push('text')
  if (!types.has('integer') && !types.has('number')) out.push(42)
  if (!types.has('boolean')) out.push(true)
  if (!types.has('object')) out.push({ nested: 1 })
  if (schema.minimum !== undefined) out.push(schema.minimum - 1)
  if (schema.maximum !== undefined) out.push(schema.maximum + 1)
  if ((types.has('integer') || types.has('number')) && !types.has('string')) out.push(1.5)
  if (schema.maxLength !== undefined) out.push('y'.repeat(schema.maxLength + 1))
  if ((schema.minLength ?? 0) > 1) out.push('y')
  if (schema.minLength !== undefined) out.push('')
  if (schema.format !== undefined) out.push('not a valid value at all')
  if (schema.enum || schema.anyOf?.some((b) => b.const !== undefined)) out.push('no-such-choice')
  if (schema.maxItems !== undefined) out.push(Array.from({ length: schema.maxItems + 1 }, () => 'data:read'))
  if (schema.items) out.push([42], ['no-such-scope'])
  return out
}

/** Query and path texts a parameter refuses. */
function invalidTexts(name: string, schema: JsonSchema): string[] {
  const out = ['!!', '']
  if (schema.pattern !== undefined || /ledger/.test(name)) out.push('-1', '1.5', '9'.repeat(20), 'ten')
  if (name === 'limit') out.push('0', '501', '99999')
  if (schema.enum || schema.anyOf) out.push('no-such-choice')
  return out
}

describe('400 messages, in plain words, for every route', () => {
  let t: TestApp
  let doc: { paths: Record<string, Record<string, Operation>> }
  const headers: Record<string, Record<string, string>> = {}
  beforeAll(async () => {
    // A quota no test reaches: hundreds of refusals are sent with one key.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' })
    doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    const user = await signUp(t.app)
    headers.apiKey = apiKey((await createKey(t.app)).key)
    headers.bearer = bearer(user.access_token)
    headers.admin = { 'x-svc-admin-token': ADMIN_TOKEN }
  })
  afterAll(async () => t.close())

  it('answers each invalid input with a 400 that names the field and says what it must be', async () => {
    const problems: string[] = []
    let sent = 0
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const scheme = Object.keys(operation.security?.[0] ?? {})[0]
        const credential = scheme ? (headers[scheme] ?? {}) : {}
        const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path')
        const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query')
        const urlOf = (overrides: Record<string, string> = {}, query = '') => {
          let url = path
          for (const p of pathParams) {
            const fallback =
              { address: ACCOUNT, pool: CONTRACT, hash: HASH, ledger: '1', id: 'key_x' }[p.name] ?? 'x'
            url = url.replace(`{${p.name}}`, encodeURIComponent(overrides[p.name] ?? fallback))
          }
          return query === '' ? url : `${url}?${query}`
        }
        const bodySchema = operation.requestBody?.content['application/json']?.schema
        const validBody = () =>
          Object.fromEntries(
            (bodySchema?.required ?? []).map((name) => [
              name,
              validValue(name, bodySchema?.properties?.[name] ?? {}),
            ]),
          )
        const send = async (label: string, url: string, payload?: unknown) => {
          sent++
          const response = await t.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: { ...credential, ...(bodySchema ? { 'content-type': 'application/json' } : {}) },
            ...(bodySchema ? { payload: JSON.stringify(payload ?? validBody()) } : {}),
          })
          const what = `${method.toUpperCase()} ${path} ${label}`
          if (response.statusCode === 404 || response.statusCode === 409) return
          if (response.statusCode !== 400) {
            problems.push(`${what}: status ${response.statusCode} ${response.body.slice(0, 200)}`)
            return
          }
          const error = response.json().error as {
            code: string
            message: string
            details?: Array<{ field: string; message: string }>
          }
          for (const text of [error.message, ...(error.details ?? []).map((d) => d.message)]) {
            const hit = JARGON.find((pattern) => pattern.test(text))
            if (hit) problems.push(`${what}: "${text}" (${hit})`)
          }
          if (error.code === 'invalid_request' && !(error.details?.length ?? 0)) {
            problems.push(`${what}: no details naming the field`)
          }
          for (const detail of error.details ?? []) {
            // Each detail names its field first, then says what it must be.
            if (!/^\S+ (must|is required$|is not a known field$)/.test(detail.message)) {
              problems.push(`${what}: detail "${detail.message}" does not say what its field must be`)
            }
            if (detail.field !== '(body)' && !detail.message.startsWith(`${detail.field} `)) {
              problems.push(
                `${what}: detail "${detail.message}" does not start with its field ${detail.field}`,
              )
            }
          }
        }

        await send('unknown query parameter', urlOf({}, 'no_such_parameter=1'))
        for (const p of queryParams) {
          for (const text of invalidTexts(p.name, p.schema)) {
            await send(`?${p.name}=${text}`, urlOf({}, `${p.name}=${encodeURIComponent(text)}`))
          }
        }
        for (const p of pathParams) {
          if (p.schema.pattern === undefined && p.name !== 'address') continue
          for (const text of invalidTexts(p.name, p.schema).filter((x) => x !== '')) {
            await send(`{${p.name}}=${text}`, urlOf({ [p.name]: text }))
          }
        }
        if (bodySchema) {
          await send('unknown body field', urlOf(), { ...validBody(), no_such_field: 1 })
          if ((bodySchema.required ?? []).length > 0 || bodySchema.minProperties) {
            await send('empty body', urlOf(), {})
          }
          await send('body not an object', urlOf(), [1, 2])
          for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
            for (const value of invalidValues(schema)) {
              await send(`${name}=${JSON.stringify(value).slice(0, 40)}`, urlOf(), {
                ...validBody(),
                [name]: value,
              })
            }
          }
        }
      }
    }
    expect(problems).toEqual([])
    // Every route was tried, each in several ways.
    expect(sent).toBeGreaterThan(400)
  }, 120_000)

  it('words the main kinds of refusal as a person would', async () => {
    const get = (url: string, credential = headers.apiKey) =>
      t.app.inject({ method: 'GET', url, headers: credential })
    const details = async (response: Promise<{ json(): { error: { details: unknown } } }>) =>
      (await response).json().error.details
    expect(await details(get(`/v1/users/${ACCOUNT}/positions/vaultprotocol?as_of_ledger=-1`))).toEqual([
      {
        field: 'as_of_ledger',
        message: 'as_of_ledger must be a ledger number (a whole number from 0 to 2^63-1)',
      },
    ])
    expect(await details(get(`/v1/users/${ACCOUNT}/positions/vaultprotocol?asof=1`))).toEqual([
      { field: 'asof', message: 'asof is not a known field' },
    ])
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/org/api-keys/key_x/rotate',
      headers: { ...headers.bearer, 'content-type': 'application/json' },
      payload: { old_key_expires_in_seconds: 604801 },
    })
    expect(refused.json().error).toMatchObject({
      code: 'invalid_request',
      message: 'old_key_expires_in_seconds must be at most 604800',
      details: [
        { field: 'old_key_expires_in_seconds', message: 'old_key_expires_in_seconds must be at most 604800' },
      ],
    })
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'a@example.com' },
    })
    expect(login.json().error.message).toBe('password is required')
  })
})
