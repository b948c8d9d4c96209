import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, bearer, createKey, signUp } from '../support/factories.ts'

type Media = { schema?: { $ref?: string; type?: unknown }; example?: unknown; examples?: unknown }
type Response = { description?: string; content?: Record<string, Media> }
type Parameter = {
  name: string
  in: string
  description?: string
  example?: unknown
  schema: Record<string, unknown>
}
type Operation = {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  security?: unknown[]
  parameters?: Parameter[]
  requestBody?: { content: Record<string, Media> }
  responses: Record<string, Response>
}

describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: {
    servers?: unknown[]
    tags: Array<{ name: string; description?: string }>
    'x-tagGroups': Array<{ name: string; tags: string[] }>
    paths: Record<string, Record<string, Operation>>
    components: { schemas: Record<string, unknown> }
  }
  beforeAll(async () => {
    t = await createTestApp()
    doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
  })
  afterAll(async () => t.close())

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    )

  it("documents each route's security as the credential the guard enforces", async () => {
    // What the guard answers without a credential tells which one each route takes.
    for (const { key, operation } of operations()) {
      const [method, path] = key.split(' ') as [string, string]
      const url = path
        .replace('{address}', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7')
        .replace(/\{[a-z]+\}/g, '1')
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { 'content-type': 'application/json' },
        payload: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      })
      if (operation.security?.length === 0) {
        expect(response.statusCode, key).not.toBe(401)
      } else {
        expect(response.statusCode, key).toBe(401)
        const scheme = Object.keys(operation.security?.[0] as object)[0]
        const header = { apiKey: 'x-svc-token', bearer: 'authorization', admin: 'x-svc-admin-token' }[
          scheme as string
        ]
        expect(response.json().error.message, key).toMatch(
          new RegExp(header === 'authorization' ? 'bearer|access token|authorization' : (header ?? '-'), 'i'),
        )
      }
    }
  })

  it('names every operation uniquely, lists a server and a 4xx for each', () => {
    const ids = operations().map(({ operation }) => operation.operationId)
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(doc.servers?.length).toBeGreaterThan(0)
    for (const { key, operation } of operations()) {
      expect(
        Object.keys(operation.responses).some((status) => status.startsWith('4')),
        key,
      ).toBe(true)
    }
  })

  it('names every shape: each answer and body is a $ref to a component, no generated name', () => {
    for (const { key, operation } of operations()) {
      const media = [
        ...Object.values(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {})),
      ]
      for (const { schema } of media) {
        // An object is always named; a bare scalar (a CSV text) may stay inline.
        if (schema?.$ref === undefined) expect(schema?.type, key).not.toBe('object')
        else
          expect(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')], key).toBeDefined()
      }
    }
    const names = Object.keys(doc.components.schemas)
    expect(names).toEqual(
      expect.arrayContaining(['ErrorEnvelope', 'Health', 'KeyCreationResult', 'Asset', 'PageMeta']),
    )
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*[A-Za-z]$/)
    // Nothing inline below the named shapes either: every nested object is a $ref.
    const inline: string[] = []
    const walk = (schema: unknown, at: string, top: boolean) => {
      if (schema === null || typeof schema !== 'object') return
      const node = schema as Record<string, unknown>
      if (!top && node.type === 'object' && (node.properties || node.additionalProperties)) inline.push(at)
      for (const [key, value] of Object.entries(node)) {
        if (key === 'examples' || key === 'example') continue
        walk(value, `${at}.${key}`, false)
      }
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name, true)
    expect(inline).toEqual([])
  })

  it('gives every operation a summary, a description, one described tag and an example of each JSON answer', () => {
    const tags = new Map(doc.tags.map((tag) => [tag.name, tag.description]))
    const grouped = new Set(doc['x-tagGroups'].flatMap((group) => group.tags))
    for (const { key, operation } of operations()) {
      expect(operation.summary, key).toBeTruthy()
      expect(operation.description, key).toBeTruthy()
      expect(operation.tags, key).toHaveLength(1)
      const tag = operation.tags?.[0] as string
      expect(tags.get(tag), `${key} tag ${tag}`).toBeTruthy()
      expect(grouped.has(tag), key).toBe(true)
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${key} ${status}`).toBeTruthy()
        expect(response.description, `${key} ${status}`).not.toBe('Default Response')
        const json = response.content?.['application/json']
        if (json) expect(json.example ?? json.examples, `${key} ${status}`).toBeDefined()
      }
      for (const parameter of operation.parameters ?? []) {
        expect(parameter.description, `${key} ${parameter.name}`).toBeTruthy()
        expect(parameter.example, `${key} ${parameter.name}`).toBeDefined()
      }
    }
  })

  it('types ledger pins and limits as integers, and /at/{ledger} as an integer or latest', () => {
    const seen = new Set<string>()
    for (const { key, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        if (['as_of_ledger', 'from_ledger', 'to_ledger', 'min_ledger'].includes(parameter.name)) {
          expect(parameter.schema, `${key} ${parameter.name}`).toMatchObject({
            type: 'integer',
            format: 'int64',
            minimum: 0,
          })
          expect(Number.isInteger(parameter.example), `${key} ${parameter.name}`).toBe(true)
          seen.add(parameter.name)
        } else if (parameter.name === 'limit') {
          expect(parameter.schema, key).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 })
          seen.add('limit')
        } else if (parameter.name === 'ledger') {
          expect(parameter.schema, key).toEqual({
            oneOf: [
              { type: 'integer', format: 'int64', minimum: 0 },
              { type: 'string', enum: ['latest'], description: expect.any(String) },
            ],
          })
          seen.add('ledger')
        }
      }
    }
    expect([...seen].sort()).toEqual([
      'as_of_ledger',
      'from_ledger',
      'ledger',
      'limit',
      'min_ledger',
      'to_ledger',
    ])
  })

  it('has the typed client take ledger pins and limits as numbers', async () => {
    const types = astToString(await openapiTS(doc as never))
    expect(types).toMatch(/as_of_ledger\?: number;/)
    expect(types).toMatch(/limit\?: number;/)
    expect(types).not.toMatch(/as_of_ledger\?: string;/)
    expect(types).toMatch(/ledger: number \| "latest";/)
  })

  it("documents what each route answers an unknown query parameter, and its caller's refusals", async () => {
    const key = (await createKey(t.app)).key
    const signed = await signUp(t.app)
    const credential: Record<string, Record<string, string>> = {
      apiKey: apiKey(key),
      bearer: bearer(signed.access_token),
      admin: { 'x-svc-admin-token': ADMIN_TOKEN },
    }
    for (const { key: name, operation } of operations()) {
      const [method, path] = name.split(' ') as [string, string]
      const url = path
        .replace('{address}', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7')
        .replace('{hash}', 'ab'.repeat(32))
        .replace(/\{[a-z]+\}/g, '1')
      const scheme = Object.keys((operation.security?.[0] ?? {}) as object)[0]
      const response = await t.app.inject({
        method: method as 'GET',
        url: `${url}?unknown_parameter=1`,
        headers: { 'content-type': 'application/json', ...(scheme ? credential[scheme] : {}) },
        payload: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      })
      expect(Object.keys(operation.responses), `${name} answered ${response.statusCode}`).toContain(
        String(response.statusCode),
      )
      expect(response.statusCode, name).toBe(400)
      const refused = Object.keys(operation.responses)
      if (scheme) expect(refused, name).toContain('401')
      // A stream (text/event-stream) is never cached: it has no 304.
      const streams = 'text/event-stream' in (operation.responses['200']?.content ?? {})
      if (scheme === 'apiKey')
        expect(refused, name).toEqual(expect.arrayContaining(['403', '429', ...(streams ? [] : ['304'])]))
      expect(refused, name).toEqual(expect.arrayContaining(['408', '500', '503']))
      if (operation.requestBody) expect(refused, name).toEqual(expect.arrayContaining(['413', '415']))
    }
  })
})
