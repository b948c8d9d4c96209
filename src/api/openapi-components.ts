/**
 * The OpenAPI document's components: every object shape moved into `components.schemas` under one
 * name (`SchemaNamer`), and the scalar properties given the values real answers hold
 * (`harvestExamples`). Used by `finishDocument` (src/api/openapi.ts).
 */

/** A JSON object of the document. */
export type JsonObject = Record<string, unknown>

/** JSON Schema keywords whose value is one schema. */
const SCHEMA_KEYWORDS = ['items', 'additionalProperties', 'not'] as const
/** JSON Schema keywords whose value is a list of schemas. */
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const

/** Whether `value` is a JSON object (not an array, not null). */
export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** Keys sorted at every depth: two equal shapes write the same text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  )
}

/** The singular of a property name, for the component of its items: `positions` → `Position`. */
function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.endsWith('ses')) return word.slice(0, -2)
  return word.endsWith('s') ? word.slice(0, -1) : `${word}Item`
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

const wordsOf = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(pascal)
    .join('')

/**
 * Moves every object shape of the document into `components.schemas`, each once, under the name
 * the code gives it (its `title`), else its place: `<Parent><Property>`, `<Parent><Item>`, or
 * `<OperationId>Response`/`Request` for a route's own. One name per shape: a shape met again
 * (a protocol's assets, the page meta) is a `$ref` to the first; two different shapes the code
 * gave one title are an error, found when the document is built.
 */
export class SchemaNamer {
  readonly schemas: Record<string, JsonObject> = {}
  private readonly nameOfShape = new Map<string, string>()

  constructor(existing: Record<string, JsonObject>) {
    for (const [name, schema] of Object.entries(existing)) {
      const { $id: _id, ...rest } = schema
      this.schemas[name] = rest
    }
    for (const [name, schema] of Object.entries(this.schemas)) {
      this.schemas[name] = this.inner(schema, name)
      this.nameOfShape.set(canonical(this.schemas[name]), name)
    }
  }

  /** `schema` with every object shape in it, and itself, replaced by a `$ref`. */
  name(schema: unknown, suggested: string): unknown {
    if (!isObject(schema) || schema.$ref !== undefined) return schema
    const inner = this.inner(schema, (schema.title as string | undefined) ?? suggested)
    const isShape =
      inner.type === 'object' && (inner.properties !== undefined || inner.additionalProperties !== undefined)
    if (!isShape) return inner
    const { title, ...shape } = inner
    const text = canonical(shape)
    const known = this.nameOfShape.get(text)
    if (known) return { $ref: `#/components/schemas/${known}` }
    const name = (title as string | undefined) ?? suggested
    if (this.schemas[name] !== undefined) {
      throw new Error(`two different shapes are both named ${name} in the OpenAPI document: give one a title`)
    }
    this.schemas[name] = shape
    this.nameOfShape.set(text, name)
    return { $ref: `#/components/schemas/${name}` }
  }

  /** `schema`'s subschemas named; `schema` itself left in place. */
  private inner(schema: JsonObject, base: string): JsonObject {
    const out: JsonObject = { ...schema }
    if (isObject(schema.properties)) {
      out.properties = Object.fromEntries(
        Object.entries(schema.properties).map(([key, value]) => [key, this.name(value, base + wordsOf(key))]),
      )
    }
    if (isObject(schema.patternProperties)) {
      out.patternProperties = Object.fromEntries(
        Object.entries(schema.patternProperties).map(([key, value]) => [
          key,
          this.name(value, `${base}Value`),
        ]),
      )
    }
    for (const keyword of SCHEMA_KEYWORDS) {
      if (isObject(schema[keyword])) {
        out[keyword] = this.name(schema[keyword], keyword === 'items' ? singular(base) : `${base}Value`)
      }
    }
    for (const keyword of LIST_KEYWORDS) {
      const list = schema[keyword]
      if (Array.isArray(list)) out[keyword] = list.map((item, i) => this.name(item, `${base}Option${i + 1}`))
    }
    return out
  }
}

/** The schema a `$ref` names, or the schema itself. */
function resolve(schemas: Record<string, JsonObject>, schema: unknown): JsonObject | null {
  if (!isObject(schema)) return null
  const ref = schema.$ref
  if (typeof ref === 'string') return schemas[ref.replace('#/components/schemas/', '')] ?? null
  return schema
}

const SCALAR = new Set(['string', 'integer', 'number', 'boolean', 'null'])

/**
 * Gives each scalar property of the components an `examples` value from the real answers:
 * `value` is an answer (or body) valid against `schema`; the first value met for a property is
 * kept. Nothing is invented: a property no example answer holds stays without one.
 */
export function harvestExamples(
  schemas: Record<string, JsonObject>,
  schema: unknown,
  value: unknown,
  depth = 0,
): void {
  const node = resolve(schemas, schema)
  if (node === null || depth > 40) return
  for (const branch of [...((node.anyOf as unknown[]) ?? []), ...((node.oneOf as unknown[]) ?? [])]) {
    harvestExamples(schemas, branch, value, depth + 1)
  }
  if (Array.isArray(value)) {
    for (const item of value) harvestExamples(schemas, node.items, item, depth + 1)
    return
  }
  if (!isObject(value)) return
  const properties = (node.properties ?? {}) as Record<string, JsonObject>
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key] ?? resolve(schemas, node.additionalProperties)
    if (!property) continue
    const types = [property.type].flat()
    const scalar = property.type !== undefined && types.every((t) => SCALAR.has(t as string))
    if (scalar && property.examples === undefined && !property.anyOf && !property.oneOf) {
      const type = jsonType(item)
      const fits = types.includes(type) || (type === 'integer' && types.includes('number'))
      if (fits) property.examples = [item]
    } else {
      harvestExamples(schemas, property, item, depth + 1)
    }
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}
