import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

/**
 * The API grammar (docs/api.md, "Grammar"), held over the OpenAPI document: every response
 * schema of every operation is walked, and each machine-checkable rule is applied to every
 * property at every depth. The document is generated from the schemas that serialize the
 * answers, so a field the document shows is a field clients get.
 */

interface JsonSchema {
  type?: string | string[]
  format?: string
  description?: string
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  additionalProperties?: boolean | JsonSchema
}

interface Parameter {
  name: string
  in: string
}

interface Operation {
  parameters?: Parameter[]
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>
}

/** One property of a response schema, where it sits. */
interface Property {
  /** `GET /v1/org/api-keys` */
  operation: string
  /** `data[].created_at`: the JSON path of the property in the answer. */
  path: string
  name: string
  schema: JsonSchema
  /** Set on a property found missing or misplaced by the walk itself: the rule it breaks. */
  broken?: string
}

/** Property names that hold a contract's own address under a second name. */
const CONTRACT_SYNONYMS = new Set(['contract', 'vault', 'contract_id', 'pool_address', 'vault_address'])
/** Names of times held as numbers, in any spelling the API has used. */
const EPOCH_NAME = /(^|_)(time|timestamp|expiration|epoch)$/
/** Words of a description that say a string is several values joined. */
const JOINED_WORDS = /comma[- ]separated|space[- ]separated|joined by|separated by|delimited/i
/** Names that are lists wherever they appear: an array, or a map of them by id. */
const LIST_NAMES = new Set([
  'scopes',
  'tags',
  'position_types',
  'sources',
  'assets',
  'contracts',
  'actions',
  'activities',
  'positions',
  'groups',
  'reserves',
  'emissions',
  'pairs',
  'vaults',
  'strategies',
  'snapshots',
  'points',
  'buckets',
  'details',
])

/** The types a schema admits, its union's branches included. */
function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>([schema.type ?? []].flat())
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    for (const type of typesOf(branch)) types.add(type)
  }
  return types
}

/** The formats a schema's non-null branches declare. */
function formatsOf(schema: JsonSchema): Set<string | undefined> {
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].filter(
    (branch) => !typesOf(branch).has('null') || typesOf(branch).size > 1,
  )
  if (branches.length === 0) return new Set([schema.format])
  return new Set(branches.flatMap((branch) => [...formatsOf(branch)]))
}

/** `value` with each `$ref` to a named schema replaced by that schema. */
function inlineRefs(value: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(item, schemas))
  if (value === null || typeof value !== 'object') return value
  const ref = (value as { $ref?: unknown }).$ref
  if (typeof ref === 'string') return inlineRefs(schemas[ref.replace('#/components/schemas/', '')], schemas)
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlineRefs(item, schemas)]))
}

function collect(operation: string, schema: JsonSchema | undefined, path: string, out: Property[]): void {
  if (!schema) return
  // A reason sits beside the value it explains.
  const names = Object.keys(schema.properties ?? {})
  if (names.includes('usd_unavailable_reason') && !names.some((name) => name.endsWith('_usd'))) {
    const at = path === '' ? 'usd_unavailable_reason' : `${path}.usd_unavailable_reason`
    const broken = 'a usd_unavailable_reason sits beside the *_usd value it explains'
    out.push({ operation, path: at, name: 'usd_unavailable_reason', schema: {}, broken })
  }
  // Every protocol's position rows come with their groups: the pair is checked as one property.
  if (schema.properties?.positions && !schema.properties.groups) {
    const broken = 'every protocol has groups beside its positions'
    out.push({
      operation,
      path: path === '' ? 'groups' : `${path}.groups`,
      name: 'groups',
      schema: {},
      broken,
    })
  }
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    collect(operation, branch, path, out)
  }
  if (schema.items) collect(operation, schema.items, `${path}[]`, out)
  if (typeof schema.additionalProperties === 'object') {
    collect(operation, schema.additionalProperties, `${path}{}`, out)
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const at = path === '' ? name : `${path}.${name}`
    out.push({ operation, path: at, name, schema: property })
    collect(operation, property, at, out)
  }
}

/**
 * The violations of one property, each as `<operation> <path>: <rule>`. `contractWords` are the
 * descriptions some `contract_address` has: a field described the same way is the same thing,
 * and has the same name.
 */
function violationsOf(property: Property, contractWords: ReadonlySet<string> = new Set()): string[] {
  const { operation, path, name, schema } = property
  const types = typesOf(schema)
  const found: string[] = []
  const flag = (rule: string) => found.push(`${operation} ${path}: ${rule}`)
  const description = schema.description ?? ''
  if (property.broken) flag(property.broken)

  // 1. A contract's own address is `contract_address`; `address` is only the account asked about.
  if (CONTRACT_SYNONYMS.has(name)) flag('a contract address is named contract_address')
  if (name === 'address' && !(operation.includes('{address}') && /(^|\.)data\.address$/.test(path))) {
    flag('`address` is only the account an answer is about (data.address); a contract is contract_address')
  }
  if (contractWords.has(description) && name !== 'contract_address') {
    flag('one name per thing: described as a contract_address is, it is named contract_address')
  }
  // 2. Times are RFC 3339 strings named *_at; nothing else is named *_at.
  if (name.endsWith('_at') || name === 'at') {
    const ok = [...types].every((t) => t === 'string' || t === 'null')
    if (!ok || ![...formatsOf(schema)].every((f) => f === 'date-time')) {
      flag('a time is an RFC 3339 string (format date-time) named *_at')
    }
  }
  if (types.has('string') && formatsOf(schema).has('date-time') && !name.endsWith('_at') && name !== 'at') {
    flag('an RFC 3339 time is named *_at')
  }
  if (
    (types.has('integer') || types.has('number')) &&
    (EPOCH_NAME.test(name) || /epoch/i.test(description))
  ) {
    flag('a time is an RFC 3339 string named *_at, never epoch seconds')
  }
  // 3. Ledgers are integers named ledger or *_ledger.
  if (name === 'ledger' || name.endsWith('_ledger')) {
    if (![...types].every((t) => t === 'integer' || t === 'null')) flag('a ledger is an integer')
  }
  // 4. Amounts are decimal strings; USD values *_usd decimal strings.
  if (name === 'amount' || name.startsWith('amount_') || name.endsWith('_amount') || name.endsWith('_usd')) {
    if (![...types].every((t) => t === 'string' || t === 'null')) flag('an amount is a decimal string')
  }
  // 5. Arrays are arrays: a list is never a joined string.
  if (types.has('string') && JOINED_WORDS.test(description)) flag('a list is an array, never a joined string')
  if (LIST_NAMES.has(name) && types.has('string')) flag('a list is an array (or a map by id), never a string')
  // 6. Paging lives in meta.
  if ((name === 'next_cursor' && path !== 'meta.next_cursor') || name === 'cursor') {
    flag('a page names its next page in meta.next_cursor only')
  }
  return found
}

describe('the API grammar, over the OpenAPI document', () => {
  let t: TestApp
  let operations: Array<{ key: string; operation: Operation }>
  let properties: Property[]
  beforeAll(async () => {
    t = await createTestApp()
    const named = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    // Every shape is a named component: walked here in place of its `$ref`.
    const doc = inlineRefs(named, named.components.schemas) as {
      paths: Record<string, Record<string, Operation>>
    }
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    )
    properties = []
    for (const { key, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!status.startsWith('2')) continue
        collect(key, response.content?.['application/json']?.schema, '', properties)
      }
    }
  })
  afterAll(async () => t.close())

  it('walks every operation and a realistic number of fields', () => {
    expect(operations.length).toBeGreaterThan(30)
    expect(properties.length).toBeGreaterThan(1000)
    // The walk reaches nested arrays and unions: fields known to sit deep are found.
    const paths = new Set(properties.map((p) => `${p.operation} ${p.path}`))
    expect(paths).toContain('GET /v1/org/api-keys [].created_at')
    expect(paths).toContain('GET /v1/org/audit-log data[].details.scopes')
    expect(paths).toContain(
      'GET /v1/users/{address}/positions/lendingprotocol data.positions[].contract_address',
    )
  })

  it('finds what it is meant to find (each rule against a field that breaks it)', () => {
    const probe = (path: string, name: string, schema: JsonSchema, operation = 'GET /v1/x') =>
      violationsOf({ operation, path, name, schema })
    expect(probe('data.vault', 'vault', { type: 'string' })).toHaveLength(1)
    expect(probe('data[].address', 'address', { type: 'string' })).toHaveLength(1)
    expect(probe('data.address', 'address', { type: 'string' }, 'GET /v1/users/{address}/x')).toEqual([])
    const pool = { type: 'string', description: 'The Blend pool (C…)' }
    expect(violationsOf({ operation: 'GET /v1/x', path: 'data.pool', name: 'pool', schema: pool })).toEqual(
      [],
    )
    const words = new Set([pool.description])
    expect(
      violationsOf({ operation: 'GET /v1/x', path: 'data.pool', name: 'pool', schema: pool }, words),
    ).toHaveLength(1)
    expect(probe('data.close_time', 'close_time', { type: ['integer', 'null'] })).toHaveLength(1)
    expect(probe('data.expiration', 'expiration', { type: 'integer' })).toHaveLength(1)
    expect(probe('data.when', 'when', { type: 'integer', description: 'Epoch seconds' })).toHaveLength(1)
    expect(probe('data.created_at', 'created_at', { type: 'integer' })).not.toEqual([])
    expect(probe('data.at', 'at', { type: 'integer' })).not.toEqual([])
    expect(probe('data.at', 'at', { type: 'string', format: 'date-time' })).toEqual([])
    expect(probe('data.created', 'created', { type: 'string', format: 'date-time' })).toHaveLength(1)
    expect(
      probe('data.expires_at', 'expires_at', {
        anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
      }),
    ).toEqual([])
    expect(probe('data.ledger', 'ledger', { type: 'string' })).toHaveLength(1)
    expect(probe('data.amount_usd', 'amount_usd', { type: 'number' })).toHaveLength(1)
    expect(probe('data.scopes', 'scopes', { type: 'string' })).toHaveLength(1)
    expect(
      probe('data.tokens', 'tokens', { type: 'string', description: 'Comma-separated ids' }),
    ).toHaveLength(1)
    expect(probe('next_cursor', 'next_cursor', { type: 'string' })).toHaveLength(1)
    const rows = {
      type: 'object',
      properties: { positions: { type: 'array' }, usd_unavailable_reason: { type: 'string' } },
    }
    const found: Property[] = []
    collect('GET /v1/x', rows, 'data', found)
    expect(found.flatMap((p) => violationsOf(p))).toEqual([
      'GET /v1/x data.usd_unavailable_reason: a usd_unavailable_reason sits beside the *_usd value it explains',
      'GET /v1/x data.groups: every protocol has groups beside its positions',
    ])
    expect(probe('meta.next_cursor', 'next_cursor', { type: ['string', 'null'] })).toEqual([])
  })

  it('holds names and types in every response field', () => {
    const contractWords = new Set(
      properties
        .filter((p) => p.name === 'contract_address' && p.schema.description)
        .map((p) => p.schema.description),
    )
    // The protocols' own contracts are described, so the rule has words to hold.
    expect(contractWords).toContain('The Blend pool (C…)')
    const violations = properties.flatMap((p) => violationsOf(p, contractWords as Set<string>))
    expect(violations).toEqual([])
  })

  it('pages every list the same way: limit and cursor in, data and meta {limit, next_cursor} out', () => {
    const problems: string[] = []
    for (const { key, operation } of operations) {
      if (!key.startsWith('GET ')) continue
      const schema = operation.responses['200']?.content?.['application/json']?.schema
      const data = schema?.properties?.data
      const meta = schema?.properties?.meta
      const query = new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name))
      const pages = data !== undefined && typesOf(data).has('array')
      const paged = query.has('limit') || query.has('cursor') || meta?.properties?.next_cursor !== undefined
      if (!pages && !paged) continue
      if (!query.has('limit') || !query.has('cursor')) problems.push(`${key}: takes limit and cursor`)
      if (!meta?.properties?.limit || !typesOf(meta.properties.limit).has('integer')) {
        problems.push(`${key}: answers meta.limit`)
      }
      const next = meta?.properties?.next_cursor
      if (!next || !typesOf(next).has('string') || !typesOf(next).has('null')) {
        problems.push(`${key}: answers meta.next_cursor (a string, null on the last page)`)
      }
      // The items are an array: `data` itself, or for an answer about one account the one array
      // beside the echoed address (`{address, snapshots}`, `{address, activities}`).
      const items = pages
        ? [data]
        : Object.entries(data?.properties ?? {})
            .filter(([name]) => name !== 'address')
            .map(([, s]) => s)
      if (items.length !== 1 || !items[0] || !typesOf(items[0]).has('array')) {
        problems.push(`${key}: answers its items as one array`)
      }
    }
    expect(problems).toEqual([])
    // The lists this rule is about are among those it checked.
    const listed = operations.map((o) => o.key)
    for (const list of [
      'GET /v1/org/api-keys',
      'GET /v1/org/audit-log',
      'GET /v1/users/{address}/activities',
    ]) {
      expect(listed).toContain(list)
    }
  })
})

describe('the protocol list pages like every list', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('walks the registered protocols a page at a time, in a fixed order, and refuses a foreign cursor', async () => {
    const { key } = await createKey(t.app)
    const get = (query = '') =>
      t.app.inject({ method: 'GET', url: `/v1/protocols${query}`, headers: apiKey(key) })
    const whole = await get()
    expect(whole.statusCode, whole.body).toBe(200)
    expect(whole.json().meta).toMatchObject({ limit: 100, next_cursor: null })
    const names: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const response = await get(`?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(response.statusCode, response.body).toBe(200)
      const body = response.json()
      expect(body.data).toHaveLength(1)
      expect(body.meta.limit).toBe(1)
      names.push(body.data[0].name)
      cursor = body.meta.next_cursor
      pages++
    } while (cursor !== null && pages < 10)
    expect(names).toEqual(['vaultprotocol', 'lendingprotocol', 'ammprotocol', 'yieldprotocol'])
    expect(whole.json().data.map((p: { name: string }) => p.name)).toEqual(names)
    for (const bad of [
      Buffer.from('a1:1').toString('base64url'),
      Buffer.from('p1:4').toString('base64url'),
      'x',
    ]) {
      const response = await get(`?cursor=${bad}`)
      expect(response.statusCode, bad).toBe(400)
      expect(response.json().error.details).toEqual([
        { field: 'cursor', message: 'cursor must be the next_cursor of an earlier page, unchanged' },
      ])
    }
  })
})
