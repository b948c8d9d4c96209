import type { SwaggerOptions, SwaggerTransformObject } from '@fastify/swagger'
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from '../errors.ts'
import { protocolWord } from '../protocols/kit/response-schema.ts'
import { VERSION } from '../version.ts'
import { loadOperationExamples, type OperationExample } from './examples/load.ts'
import { GETTING_STARTED } from './getting-started.ts'
import { harvestExamples, isObject, type JsonObject, SchemaNamer } from './openapi-components.ts'
import { webhooksSection } from './openapi-webhooks.ts'
import { DOCUMENTED_PARAMETERS } from './params.ts'
import type { RouteAuth } from './request-context.ts'

/** The documented security of each credential a route declares; `none` is an explicit empty list. */
const SECURITY: Record<RouteAuth, Array<Record<string, string[]>>> = {
  api_key: [{ apiKey: [] }],
  bearer: [{ bearer: [] }],
  admin: [{ admin: [] }],
  none: [],
}

/**
 * The tags of the reference page, each described, in the order the page groups them
 * (`x-tagGroups`); the top-level list itself is alphabetical, as the lint wants.
 */
export const TAG_GROUPS: Array<{ name: string; tags: Array<{ name: string; description: string }> }> = [
  {
    name: 'Data',
    tags: [
      {
        name: 'Positions',
        description:
          "An account's positions in one protocol or in all of them, now, at a ledger (`as_of_ledger`) or valued at one ledger (`/at/{ledger}`).",
      },
      {
        name: 'History',
        description:
          "Every snapshot of an account's positions in a protocol over a ledger range, newest first.",
      },
      {
        name: 'Activities',
        description:
          "An account's actions in the protocols (supply, swap, deposit…), a transaction's, and their series.",
      },
      {
        name: 'Protocols & pools',
        description: 'The protocols indexed, their pools, reserves and emissions at a ledger.',
      },
      {
        name: 'Ledgers',
        description:
          'The indexed ledgers: which was the latest closed at a time, the ledger to pin for an answer as it stood then.',
      },
      {
        name: 'TVL',
        description: "A protocol's total value locked at a ledger, or its series over a range.",
      },
    ],
  },
  {
    name: 'Management',
    tags: [
      {
        name: 'Account & auth',
        description: 'Self-service signup, and the access and refresh tokens of the management endpoints.',
      },
      { name: 'Organization', description: "The caller's organization: its plan, quota and billing." },
      {
        name: 'API keys',
        description: 'Create, list, rotate and revoke the API keys that read the data endpoints.',
      },
      {
        name: 'Webhooks',
        description:
          "Subscriptions that POST the organization's events (position changes, activities, a health factor falling below a threshold) to its https endpoint, signed as Standard Webhooks, and the state of each delivery.",
      },
      {
        name: 'Audit log',
        description: "Who changed what in the organization's keys and settings, newest first.",
      },
    ],
  },
  {
    name: 'Service',
    tags: [
      { name: 'Service', description: "The service's own health, unauthenticated." },
      {
        name: 'Demo',
        description: 'Only on a demo server (`strata serve --demo`): accounts worth asking about.',
      },
    ],
  },
]

/** Each tag's name by its lower-case spelling. */
const TAG_NAMES = new Map(
  TAG_GROUPS.flatMap((group) => group.tags).map((tag) => [tag.name.toLowerCase(), tag.name]),
)

/** The readable operation id of each non-protocol route; protocol routes follow `protocolOperationId`. */
const OPERATION_IDS: Record<string, string> = {
  'GET /v1/health': 'getHealth',
  'GET /v1/health/ready': 'getReadiness',
  'GET /v1/health/live': 'getLiveness',
  'POST /v1/auth/signup': 'signUp',
  'POST /v1/auth/login': 'logIn',
  'POST /v1/auth/refresh': 'refreshAccessToken',
  'POST /v1/auth/logout': 'logOut',
  'POST /v1/org/api-keys': 'createOrganizationApiKey',
  'GET /v1/org/api-keys': 'listApiKeys',
  'POST /v1/org/api-keys/new': 'createApiKey',
  'DELETE /v1/org/api-keys/{id}': 'revokeApiKey',
  'POST /v1/org/api-keys/{id}/rotate': 'rotateApiKey',
  'GET /v1/org': 'getOrganization',
  'GET /v1/org/usage': 'getOrganizationUsage',
  'PATCH /v1/org/billing': 'updateBilling',
  'GET /v1/org/audit-log': 'listAuditLog',
  'GET /v1/users/{address}/positions': 'getAllPositions',
  'GET /v1/users/{address}/positions/at/{ledger}': 'getAllPositionsAt',
  'GET /v1/protocols': 'listProtocols',
  'GET /v1/ledgers/at-time': 'getLedgerAtTime',
  'GET /v1/transactions/{hash}': 'getTransaction',
  'GET /v1/users/{address}/activities': 'listActivities',
  'GET /v1/users/{address}/activities/series': 'getActivitySeries',
  'GET /v1/demo/accounts': 'listDemoAccounts',
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

/** A protocol's routes: `getVaultPositions`, `getVaultPositionsAt`, `getLendingPool`… */
function protocolOperationId(method: string, url: string): string | null {
  if (method !== 'GET') return null
  const positions = /^\/v1\/users\/\{address\}\/positions\/([a-z0-9]+)(\/at\/\{ledger\}|\/history)?$/.exec(
    url,
  )
  if (positions) {
    const suffix = positions[2] === undefined ? '' : positions[2] === '/history' ? 'History' : 'At'
    return `get${protocolWord(positions[1] as string)}Positions${suffix}`
  }
  const protocol = /^\/v1\/protocols\/([a-z0-9]+)\/(tvl|pools\/\{pool\}|reserves|emissions)$/.exec(url)
  if (protocol) {
    const what = { tvl: 'Tvl', 'pools/{pool}': 'Pool', reserves: 'Reserves', emissions: 'Emissions' }[
      protocol[2] as string
    ]
    return `get${protocolWord(protocol[1] as string)}${what}`
  }
  return null
}

/**
 * The operation id of a route: readable, stable (the typed client's method names), unique. A route
 * neither table knows gets one from its method and path: `GET /v1/a/:b` → `getAB`.
 */
export function operationIdOf(method: string, url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
  const known = OPERATION_IDS[`${method} ${path}`] ?? protocolOperationId(method, path)
  if (known) return known
  const words = path
    .replace(/^\/v1/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(pascal)
  return method.toLowerCase() + words.join('')
}

/** What each success status means, before the operation's summary, when the route's schema does not say. */
const SUCCESS_WORDS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'Done, no content',
}

/** Statuses whose meaning on one operation is more than its summary says. */
const RESPONSE_WORDS: Record<string, string> = {
  'getHealth 200': 'The service answers: `status` is `ok`, or `degraded` with the `problems` found',
  'getHealth 503': 'The database cannot be read: `status` is `unavailable`, with the `problems` found',
}

/**
 * The error codes a route can answer beyond what its schema declares, from what the application
 * does to every request (app.ts, auth/guard.ts, error-handler.ts): an undeclared query parameter is
 * 400; a credential is 401; an API key's scope 403 and its quota 429; a body's size 413 and type
 * 415; a slow request 408; a path segment over the router's length 414; the database 503.
 */
function impliedErrors(method: string, url: string, auth: RouteAuth, hasBody: boolean): ErrorCode[] {
  const codes: ErrorCode[] = ['invalid_request', 'request_timeout', 'internal', 'unavailable']
  if (auth !== 'none') codes.push('unauthorized')
  if (auth === 'api_key') codes.push('insufficient_scope', 'rate_limited')
  if (hasBody || ['POST', 'PUT', 'PATCH'].includes(method)) codes.push('payload_too_large')
  if (hasBody) codes.push('unsupported_media_type')
  if (url.includes(':')) codes.push('uri_too_long')
  return codes
}

/**
 * One operation as @fastify/swagger hands it to `transform`: completed with every status the route
 * can answer, its security and its operation id. The credential is kept as `x-strata-auth` for
 * `finishDocument` (which documents the HTTP caching of GET data routes) and removed there.
 */
function completeOperation(schema: JsonObject, method: string, url: string, auth: RouteAuth): JsonObject {
  const responses = { ...((schema.response ?? {}) as Record<string, JsonObject>) }
  const documented = new Set(Object.keys(responses))
  const byStatus = new Map<string, ErrorCode[]>()
  for (const code of impliedErrors(method, url, auth, schema.body !== undefined)) {
    const status = String(ERROR_STATUS[code])
    if (documented.has(status)) continue
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const added: Record<string, JsonObject> = {}
  for (const [status, codes] of byStatus) {
    const words = codes.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c]}`).join(' ')
    added[status] = { $ref: 'ErrorEnvelope', description: words }
  }
  return {
    ...schema,
    response: { ...responses, ...added },
    security: SECURITY[auth],
    operationId: (schema.operationId as string | undefined) ?? operationIdOf(method, url),
    'x-strata-auth': auth,
  }
}

/** The example of an error nobody can provoke on the demo network: the code's own message. */
const ERROR_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_request: 'unknown_parameter is not a known field',
  unauthorized: 'missing credential: this endpoint takes an API key in the x-svc-token header',
  insufficient_scope: 'the API key lacks the scope "data:read"',
  forbidden: 'the pro plan is granted by the operator; this organization may choose: free',
  not_found: 'not found',
  conflict:
    'a request with this Idempotency-Key is still running; retry after it has answered to get its answer',
  request_timeout: 'the request did not arrive within 30000 ms',
  payload_too_large: 'the request body is larger than the limit',
  uri_too_long: 'a path segment is longer than the router accepts',
  unsupported_media_type: 'the request body must be sent as content-type: application/json',
  rate_limited: "the organization's quota of 600 requests per 60 s is exhausted",
  internal: 'internal error; quote request id 8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10',
  unavailable: 'the database cannot be reached; see /v1/health',
}

/** The request id every example answer carries (examples are asked with it as `x-request-id`). */
export const EXAMPLE_REQUEST_ID = '8e3b1c2a-5f1e-4d6b-9a57-2c0d4e6f8a10'

/** The envelope of `code`, as the error handler writes it. */
function errorExample(code: ErrorCode): JsonObject {
  return {
    error: { code, message: ERROR_MESSAGES[code] ?? ERROR_DESCRIPTIONS[code] },
    meta: { request_id: EXAMPLE_REQUEST_ID, response_time_ms: 1 },
  }
}

/** The first code a response's description names (`` `code`: … ``). */
function codeOfDescription(description: unknown): ErrorCode | null {
  const found = /`([a-z_]+)`/.exec(String(description ?? ''))?.[1]
  return found !== undefined && found in ERROR_STATUS ? (found as ErrorCode) : null
}

const HTTP_METHOD_ORDER = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace']

/** `ETag` and `Cache-Control` of a GET data answer, and its `304` (docs/api.md, "Caching"). */
const CACHING_HEADERS = {
  ETag: {
    description:
      "Identifies the answer's data (not its timings): send it back in `If-None-Match` to be answered 304 while the data is unchanged",
    schema: { type: 'string', examples: ['W/"3f1a9c0e5b7d2468"'] },
  },
  'Cache-Control': {
    description:
      '`public, max-age=31536000, immutable` on an answer pinned at or below the indexed checkpoint (it never changes); `no-cache` on every other data answer',
    schema: { type: 'string', examples: ['public, max-age=31536000, immutable', 'no-cache'] },
  },
}

/**
 * The whole document, finished: every shape a named component, parameters typed as what they
 * are, the tags described, and a real example on every parameter and response (from
 * `src/api/examples/`, written by `npm run openapi:examples` from the demo network).
 */
export function finishDocument(document: JsonObject, examples = loadOperationExamples()): JsonObject {
  const components = (document.components ?? {}) as JsonObject
  const namer = new SchemaNamer((components.schemas ?? {}) as Record<string, JsonObject>)
  const paths = (document.paths ?? {}) as Record<string, Record<string, JsonObject>>
  const used = new Set<string>()
  const finishedPaths: Record<string, Record<string, JsonObject>> = {}
  const bodies: Array<{ schema: unknown; value: unknown }> = []

  for (const [path, methods] of Object.entries(paths)) {
    const ordered = Object.entries(methods).sort(
      ([a], [b]) => HTTP_METHOD_ORDER.indexOf(a) - HTTP_METHOD_ORDER.indexOf(b),
    )
    finishedPaths[path] = {}
    for (const [method, source] of ordered) {
      const { 'x-strata-auth': auth, ...operation } = source
      const id = operation.operationId as string
      const example: OperationExample = examples[id] ?? { request: {}, responses: {} }
      // A route's tag as the list spells it (`service` is `Service`): one tag, one name.
      operation.tags = ((operation.tags as string[] | undefined) ?? []).map(
        (tag) => TAG_NAMES.get(tag.toLowerCase()) ?? tag,
      )
      for (const tag of operation.tags as string[]) used.add(tag)

      operation.parameters = ((operation.parameters as JsonObject[] | undefined) ?? []).map((parameter) =>
        finishParameter(parameter, example),
      )

      const body = operation.requestBody as JsonObject | undefined
      if (body) {
        const content = body.content as Record<string, JsonObject>
        for (const [type, media] of Object.entries(content)) {
          media.schema = namer.name(media.schema, `${pascal(id)}Request`)
          if (type !== 'application/json') continue
          if (example.request.body !== undefined) {
            media.example = example.request.body
            bodies.push({ schema: media.schema, value: example.request.body })
          }
        }
      }

      const responses = operation.responses as Record<string, JsonObject>
      for (const [status, response] of Object.entries(responses)) {
        const words = RESPONSE_WORDS[`${id} ${status}`]
        if (words !== undefined) response.description = words
        else if (response.description === 'Default Response') {
          response.description = `${SUCCESS_WORDS[status] ?? `HTTP ${status}`}: ${lowerFirst(String(operation.summary ?? id))}`
        }
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, JsonObject>)) {
          media.schema = namer.name(media.schema, `${pascal(id)}Response`)
          // The examples are JSON answers (a stream's: its first event's data); another media
          // type (CSV) brings its own.
          if (type !== 'application/json' && type !== 'text/event-stream') continue
          const value = example.responses[status] ?? fallbackError(status, response.description)
          const variants = example.variants?.[status] ?? []
          if (value !== undefined && variants.length === 0) media.example = value
          if (value !== undefined && variants.length > 0) {
            media.examples = {
              answer: { summary: 'An answer', value },
              ...Object.fromEntries(
                variants.map((v, i) => [`variant${i + 1}`, { summary: v.summary, value: v.value }]),
              ),
            }
          }
          for (const item of [value, ...variants.map((v) => v.value)]) {
            if (item !== undefined) bodies.push({ schema: media.schema, value: item })
          }
        }
      }
      // A stream (text/event-stream) is never cached: no ETag, no 304.
      const streams = 'text/event-stream' in ((responses['200']?.content as JsonObject | undefined) ?? {})
      if (method === 'get' && auth === 'api_key' && !streams) addCaching(responses)
      operation.responses = Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
      )
      finishedPaths[path][method] = operation
    }
  }
  const webhooks = webhooksSection(namer, examples)
  for (const { schema, value } of bodies) harvestExamples(namer.schemas, schema, value)

  const groups = TAG_GROUPS.map((group) => ({
    name: group.name,
    tags: group.tags.filter((tag) => used.has(tag.name)).map((tag) => tag.name),
  })).filter((group) => group.tags.length > 0)
  const tags = TAG_GROUPS.flatMap((group) => group.tags)
    .filter((tag) => used.has(tag.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return {
    ...document,
    tags,
    'x-tagGroups': groups,
    paths: finishedPaths,
    webhooks,
    components: { ...components, schemas: sortKeys(namer.schemas) },
  }
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
}

/** The error example of a status the examples do not hold: the first code it documents. */
function fallbackError(status: string, description: unknown): JsonObject | undefined {
  if (!/^[45]/.test(status)) return undefined
  const code = codeOfDescription(description)
  return code === null ? undefined : errorExample(code)
}

/** The 200's `ETag` and `Cache-Control`, and the `304` of a matching `If-None-Match`. */
function addCaching(responses: Record<string, JsonObject>): void {
  const ok = responses['200']
  if (ok) ok.headers = { ...CACHING_HEADERS, ...((ok.headers as JsonObject | undefined) ?? {}) }
  responses['304'] ??= {
    description:
      "Not Modified: `If-None-Match` names the answer's current `ETag`; no body, the cached answer stands",
    headers: CACHING_HEADERS,
  }
}

/** A parameter typed as the document says it (`DOCUMENTED_PARAMETERS`), with its example. */
function finishParameter(parameter: JsonObject, example: OperationExample): JsonObject {
  const schema = (parameter.schema ?? {}) as JsonObject
  const documented = typeof schema.pattern === 'string' ? DOCUMENTED_PARAMETERS[schema.pattern] : undefined
  const place = parameter.in === 'path' ? 'path' : parameter.in === 'header' ? 'headers' : 'query'
  const given = example.request[place]?.[parameter.name as string]
  // A value the examples asked with; else one the route's schema gives; else the first it allows.
  let value: unknown = given
  if (given !== undefined && documented) value = documented.fromText(given)
  value ??= parameter.example ?? (schema.examples as unknown[] | undefined)?.[0] ?? schema.example
  value ??= firstAllowed(schema)
  return {
    ...parameter,
    schema: documented ? documented.schema : schema,
    ...(value === undefined ? {} : { example: value }),
  }
}

/**
 * The example of a parameter the examples never sent: the first value its schema allows, when it
 * lists them (`enum`, `const`, or a union of them), else none.
 */
function firstAllowed(schema: JsonObject): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0]
  if (schema.const !== undefined) return schema.const
  for (const branch of [
    ...((schema.anyOf as JsonObject[]) ?? []),
    ...((schema.oneOf as JsonObject[]) ?? []),
  ]) {
    const found = isObject(branch) ? firstAllowed(branch) : undefined
    if (found !== undefined) return found
  }
  return undefined
}

/** OpenAPI 3.1, generated from the route schemas that also validate requests. */
export function buildOpenApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Strata positions API',
        version: VERSION,
        // Each deployment is run by its operator, who answers for it: the project publishes no support address.
        contact: { name: 'The operator of this Strata server' },
        license: { name: 'Proprietary (UNLICENSED)', url: 'https://spdx.org/licenses/' },
        description: GETTING_STARTED,
      },
      servers: [{ url: '/', description: 'The server this document is served from' }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'x-svc-token',
            description: 'An API key of the organization, with the `data:read` scope',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'An access token from POST /v1/auth/login or /v1/auth/refresh',
          },
          admin: {
            type: 'apiKey',
            in: 'header',
            name: 'x-svc-admin-token',
            description: "The operator's token (STRATA_ADMIN_TOKEN)",
          },
        },
      },
    },
    // Each operation's security comes from the credential the route declares in `config.auth`,
    // the same value the guard enforces, so the document cannot disagree with the code.
    transform: ({ schema, url, route }) => {
      const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth ?? 'none'
      const method = [route.method].flat()[0] ?? 'GET'
      return {
        url,
        schema: completeOperation((schema ?? {}) as JsonObject, method, url, auth) as typeof schema,
      }
    },
    transformObject: (document) =>
      ('openapiObject' in document
        ? finishDocument(document.openapiObject as JsonObject)
        : document) as ReturnType<SwaggerTransformObject>,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  }
}
