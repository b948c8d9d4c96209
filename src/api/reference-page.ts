/**
 * A human API reference rendered on the server from the OpenAPI document: one self-contained
 * HTML page (no scripts, no external assets), so it always says what the running code does.
 */
import { createHash } from 'node:crypto'
import { AMOUNT_PATTERN } from '../protocols/kit/response-schema.ts'

/** The page's one style sheet, inline (the page loads nothing). */
const PAGE_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em}section{border-top:1px solid #ddd;margin-top:1.5rem}
.method{font-weight:bold;color:#0a5}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
pre{background:#f7f7f7;padding:.5rem;overflow:auto;font-size:13px}h4{margin:.8rem 0 .2rem}.response{margin-left:1rem}`

/**
 * The page's Content-Security-Policy: nothing may load or run but its own style sheet, named by
 * its hash; no script at all, no frame around it, no form, no base URL.
 */
export const REFERENCE_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

/** The subset of JSON Schema the route schemas use. */
interface Schema {
  $ref?: string
  type?: string | string[]
  description?: string
  format?: string
  pattern?: string
  const?: unknown
  enum?: unknown[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  example?: unknown
  examples?: unknown[]
}

interface Operation {
  summary?: string
  description?: string
  tags?: string[]
  security?: Array<Record<string, unknown>>
  parameters?: Array<{
    name: string
    in: string
    required?: boolean
    description?: string
    schema?: Schema
  }>
  requestBody?: { content?: Record<string, { schema?: Schema }> }
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>
}

interface OpenApiDocument {
  info: { title: string; version: string; description?: string }
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

type Resolve = (schema: Schema | undefined) => Schema

function resolverOf(doc: OpenApiDocument): Resolve {
  const resolve: Resolve = (schema) => {
    if (!schema) return {}
    if (schema.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''])
    return schema
  }
  return resolve
}

/** The values a schema allows, when it is a closed list (plans, scopes, statuses). */
function allowedValues(schema: Schema, resolve: Resolve): unknown[] {
  if (schema.const !== undefined) return [schema.const]
  if (schema.enum) return schema.enum
  const branches = (schema.anyOf ?? schema.oneOf ?? []).map(resolve)
  return branches.every((b) => b.const !== undefined || b.enum)
    ? branches.flatMap((b) => allowedValues(b, resolve))
    : []
}

/** A short type name: `string (date-time)`, `integer`, `array of string`, `string or null`. */
function typeOf(schema: Schema, resolve: Resolve): string {
  const s = resolve(schema)
  const branches = s.anyOf ?? s.oneOf
  if (branches) return [...new Set(branches.map((b) => typeOf(b, resolve)))].join(' or ')
  if (s.const !== undefined) return typeof s.const
  const type = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any')
  if (type === 'array') return `array of ${s.items ? typeOf(s.items, resolve) : 'any'}`
  return s.format ? `${type} (${s.format})` : type
}

/** Notes on a value: allowed values, bounds, pattern, description. */
function notesOf(schema: Schema, resolve: Resolve): string {
  const s = resolve(schema)
  const notes: string[] = []
  const allowed = allowedValues(s, resolve)
  const itemAllowed = s.items ? allowedValues(resolve(s.items), resolve) : []
  if (allowed.length > 1 || itemAllowed.length > 0) {
    notes.push(
      `one of ${[...allowed, ...itemAllowed].map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`,
    )
  }
  if (s.minLength !== undefined && s.maxLength !== undefined)
    notes.push(`${s.minLength}–${s.maxLength} characters`)
  else if (s.maxLength !== undefined) notes.push(`at most ${s.maxLength} characters`)
  else if (s.minLength !== undefined) notes.push(`at least ${s.minLength} characters`)
  if (s.minimum !== undefined || s.maximum !== undefined)
    notes.push(`${s.minimum ?? '−∞'} to ${s.maximum ?? '∞'}`)
  if (s.description) notes.push(prose(s.description))
  return notes.join('; ')
}

/** One row per field, nested objects and arrays of objects flattened as `a.b` and `a[].b`. */
function fieldRows(schema: Schema | undefined, resolve: Resolve, prefix = '', depth = 0): string[] {
  const s = resolve(schema)
  const object = s.properties ? s : resolve((s.anyOf ?? []).map(resolve).find((b) => b.properties))
  // Deep enough for a history item's rows (data.snapshots[].data.positions[].x).
  if (!object.properties || depth > 8) return []
  return Object.entries(object.properties).flatMap(([name, field]) => {
    const path = `${prefix}${name}`
    const f = resolve(field)
    const row = `<tr><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(typeOf(f, resolve))}</td><td>${object.required?.includes(name) ? 'required' : 'optional'}</td><td>${notesOf(f, resolve)}</td></tr>`
    const nested =
      f.type === 'array' && f.items
        ? fieldRows(f.items, resolve, `${path}[].`, depth + 1)
        : fieldRows(f, resolve, `${path}.`, depth + 1)
    return [row, ...nested]
  })
}

/** An example value built from the schema (its own example first), so every response shows one. */
function exampleOf(schema: Schema | undefined, resolve: Resolve, depth = 0): unknown {
  const s = resolve(schema)
  if (s.example !== undefined) return s.example
  if (s.examples?.length) return s.examples[0]
  if (s.const !== undefined) return s.const
  if (s.enum?.length) return s.enum[0]
  const branches = s.anyOf ?? s.oneOf
  if (branches?.length)
    return exampleOf(branches.map(resolve).find((b) => b.type !== 'null') ?? branches[0], resolve, depth)
  if (depth > 10) return null
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [k, exampleOf(v, resolve, depth + 1)]),
      )
    case 'array':
      return s.items ? [exampleOf(s.items, resolve, depth + 1)] : []
    case 'integer':
    case 'number':
      return s.minimum ?? 0
    case 'boolean':
      return true
    case 'null':
      return null
    case 'string':
      if (s.format === 'date-time') return '2026-01-31T00:00:00.000Z'
      if (s.format === 'email') return 'ada@example.com'
      if (s.pattern === '^[0-9]{1,19}$') return '51234567'
      if (s.pattern === AMOUNT_PATTERN) return '1234.5670000'
      return 'string'
  }
  return null
}

const CREDENTIALS: Record<string, string> = {
  apiKey: 'API key in <code>x-svc-token</code>',
  bearer: 'Bearer access token in <code>authorization</code>',
  admin: 'Admin token in <code>x-svc-admin-token</code>',
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Turns `code` spans of the descriptions into <code> after escaping. */
function prose(text: string | undefined): string {
  return escapeHtml(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>')
}

const TABLE_HEAD = '<tr><th>field</th><th>type</th><th></th><th>notes</th></tr>'

function renderOperation(method: string, path: string, op: Operation, resolve: Resolve): string {
  const auth = (op.security ?? []).flatMap((s) => Object.keys(s)).map((k) => CREDENTIALS[k] ?? escapeHtml(k))
  const params = (op.parameters ?? []).map((p) => {
    const schema = resolve(p.schema)
    return `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}: ${escapeHtml(typeOf(schema, resolve))}</td><td>${p.required ? 'required' : 'optional'}</td><td>${[notesOf(schema, resolve), prose(p.description)].filter(Boolean).join('; ')}</td></tr>`
  })
  const body = op.requestBody?.content?.['application/json']?.schema
  const bodyRows = fieldRows(body, resolve)
  const responses = Object.entries(op.responses ?? {}).map(([status, r]) => {
    const schema = r.content?.['application/json']?.schema
    const rows = status.startsWith('2') ? fieldRows(schema, resolve) : []
    const example = schema ? JSON.stringify(exampleOf(schema, resolve), null, 2) : ''
    return `<div class="response"><h4>${escapeHtml(status)}</h4><p>${prose(r.description)}</p>
${rows.length ? `<table>${TABLE_HEAD}${rows.join('')}</table>` : ''}
${example && status.startsWith('2') ? `<details open><summary>example</summary><pre>${escapeHtml(example)}</pre></details>` : ''}</div>`
  })
  return `<section id="${escapeHtml(`${method}-${path}`)}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p><strong>${prose(op.summary)}</strong></p>
${op.description ? `<p>${prose(op.description)}</p>` : ''}
<p>Credential: ${auth.length ? auth.join(' or ') : 'none'}</p>
${params.length ? `<h4>Parameters</h4><table><tr><th>name</th><th>in: type</th><th></th><th>notes</th></tr>${params.join('')}</table>` : ''}
${bodyRows.length ? `<h4>Request body (JSON)</h4><table>${TABLE_HEAD}${bodyRows.join('')}</table><details><summary>example</summary><pre>${escapeHtml(JSON.stringify(exampleOf(body, resolve), null, 2))}</pre></details>` : ''}
<h4>Responses</h4>
${responses.join('')}
</section>`
}

export function renderReferencePage(doc: OpenApiDocument): string {
  const resolve = resolverOf(doc)
  const sections: string[] = []
  const index: string[] = []
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      index.push(
        `<li><a href="#${escapeHtml(`${method}-${path}`)}">${method.toUpperCase()} ${escapeHtml(path)}</a> ${prose(op.summary)}</li>`,
      )
      sections.push(renderOperation(method, path, op, resolve))
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}</title>
<style>${PAGE_STYLE}</style>
</head><body>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${prose(doc.info.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).</p>
<ul>${index.join('')}</ul>
${sections.join('\n')}
</body></html>`
}
