import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import formatsPlugin from 'ajv-formats'
import Fastify, {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify'
import { type Awaitable, andThen } from '../awaitable.ts'
import type { TrustProxy } from '../config.ts'
import type { AppContext } from '../context.ts'
import { AppError } from '../errors.ts'
import { redactUrl, writeRequestLine } from '../logger.ts'
import { slugProblem } from '../org/slug.ts'
import type { CommitSignal } from '../push/commit-signal.ts'
import type { RequestView } from '../store/request-state.ts'
import type { App } from './app-type.ts'
import { authenticate, enforceRateLimit } from './auth/guard.ts'
import { clientAddressOf, limitConnectionsPerClient } from './connection-limit.ts'
import { registerConsole } from './console-page.ts'
import { createErrorHandler, sendError } from './error-handler.ts'
import {
  cacheDataAnswer,
  compressAnswer,
  DOCUMENT_HEADERS,
  isDocumentType,
  registerCors,
} from './http-conventions.ts'
import { registerIdempotency } from './idempotency.ts'
import { addMinLedger } from './min-ledger.ts'
import { buildOpenApiOptions } from './openapi.ts'
import { requireAddress } from './params.ts'
import { REFERENCE_PAGE_PATH, registerReferencePage } from './reference-page.ts'
import type { Caller, RouteAuth } from './request-context.ts'
import { registerActivityRoutes } from './routes/activities.ts'
import { registerAllPositionsRoute } from './routes/all-positions.ts'
import { registerAuditLogRoutes } from './routes/audit-log.ts'
import { registerAuthRoutes } from './routes/auth.ts'
import { registerDemoRoutes } from './routes/demo.ts'
import { registerHealthRoutes } from './routes/health.ts'
import { registerKeyRoutes } from './routes/keys.ts'
import { registerLedgerRoutes } from './routes/ledgers.ts'
import { registerOrgRoutes } from './routes/org.ts'
import { registerPositionRoutes } from './routes/positions.ts'
import { registerProtocolListRoute } from './routes/protocol-list.ts'
import { registerProtocolRoutes } from './routes/protocols.ts'
import { registerReadinessRoutes } from './routes/readiness.ts'
import { registerSignupRoutes } from './routes/signup.ts'
import { registerStreamRoutes } from './routes/stream.ts'
import { registerTvlRoutes } from './routes/tvl.ts'
import { registerWebhookRedelivery } from './routes/webhook-redelivery.ts'
import { registerWebhookRoutes } from './routes/webhooks.ts'
import { ErrorEnvelope, errorResponses } from './schemas.ts'
import { registerWebhookDelivery } from './webhook-delivery.ts'

export type { App }

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])
/** Methods that change nothing: their answers wait for no replica. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * How often the HTTP server looks for requests over their time (Node's default is 30 s, which
 * would let a stalled request live up to 30 s past STRATA_REQUEST_TIMEOUT_MS).
 */
const CONNECTION_CHECK_MS = 1000

function createFastify(ctx: AppContext): App {
  const { requestTimeoutMs } = ctx.config
  return Fastify({
    loggerInstance: ctx.logger,
    // One log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: ctx.config.bodyLimitBytes,
    // A request's headers and body must arrive within the bound, or the connection is answered 408
    // and closed (see `answerClientErrors`): a client trickling a body cannot hold a connection
    // forever. An idle keep-alive connection closes after Fastify's 72 s (above the 60 s idle
    // timeout of common load balancers, so they never reuse a connection the server just closed).
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(CONNECTION_CHECK_MS, requestTimeoutMs),
    },
    // On close (SIGTERM), a request that arrives on a connection already open is answered as usual
    // with `connection: close` rather than 503: the server stops accepting connections and closes
    // the idle ones, and every request it has received is answered (see docs/operations.md).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Which proxies' x-forwarded-for names the client: request.ip feeds the throttles and the audit log.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID()
    },
    ajv: {
      // No coercion: a number where a string belongs is an error. Query values are validated as strings.
      customOptions: {
        removeAdditional: false,
        allErrors: true,
        coerceTypes: false,
        useDefaults: true,
        // Each error carries its schema, whose description words the message in `details`.
        verbose: true,
      },
      plugins: [formatsPlugin, slugFormat] as unknown as AjvPlugins,
    },
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (a malformed percent-escape, an over-long path segment) answer in
    // the envelope, with the request id, and are logged once like every other request: the
    // router answers them before any route or hook runs.
    frameworkErrors: (error, request, reply) => {
      const refusal =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('uri_too_long', 'a path segment is longer than the router accepts')
          : new AppError('invalid_request', 'the URL is malformed (an invalid percent-escape?)')
      reply.header('x-request-id', request.id)
      // The router's refusals run no hook: the header every answer carries is set here too.
      reply.header('x-content-type-options', 'nosniff')
      sendError(refusal, request, reply)
      logRequest(request, reply)
    },
  }).withTypeProvider<TypeBoxTypeProvider>()
}

/** A socket as Node's HTTP server keeps it: the response it is writing, if any. */
interface HttpSocket extends Socket {
  _httpMessage?: (ServerResponse & { req?: IncomingMessage }) | null
}

/**
 * The HTTP server's own refusals, before any route runs. A request whose headers and body did not
 * arrive within STRATA_REQUEST_TIMEOUT_MS is answered `408 request_timeout` in the error envelope
 * (unless part of an answer was already written) and its connection closed, with one log line;
 * every other client error (malformed HTTP, headers too large) is left to Fastify's own handler.
 */
function answerClientErrors(app: App, ctx: AppContext): void {
  const server = app.server
  const fastifyHandlers = server.listeners('clientError') as Array<(error: Error, socket: Socket) => void>
  server.removeAllListeners('clientError')
  server.on('clientError', (error: NodeJS.ErrnoException, socket: HttpSocket) => {
    if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
      for (const handler of fastifyHandlers) handler.call(server, error, socket)
      return
    }
    const inFlight = socket._httpMessage?.req
    const fields = {
      client: clientAddressOf(socket),
      ...(inFlight ? { method: inFlight.method, url: redactUrl(inFlight.url ?? '') } : {}),
      timeout_ms: ctx.config.requestTimeoutMs,
    }
    if (inFlight) {
      ctx.logger.warn(fields, 'request timed out: its body did not arrive in time; connection closed')
    } else if (socket.bytesRead > 0) {
      ctx.logger.warn(fields, 'request timed out: its headers did not arrive in time; connection closed')
    } else {
      // A connection opened and never used (a browser's preconnect, a health probe's TCP check):
      // closed like the others, but it cut no request.
      ctx.logger.debug(fields, 'connection closed: no request arrived in time')
    }
    if (socket.writable && socket._httpMessage?.headersSent !== true) {
      const message = `the request did not arrive within ${ctx.config.requestTimeoutMs} ms`
      const body = JSON.stringify({
        error: { code: 'request_timeout', message },
        meta: { request_id: randomUUID(), response_time_ms: ctx.config.requestTimeoutMs },
      })
      socket.write(
        `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
      )
    }
    socket.destroy()
  })
}

/** The headers of a response carrying a secret: no cache, shared or private, may keep it. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' }

/**
 * The policy of an HTML page: no script, no plugin, no frame, no external origin. A route sending
 * HTML sets its own `content-security-policy` when it needs more (the reference page's scripts
 * and styles); every other HTML answer gets the strictest. Pages and scripts also get DOCUMENT_HEADERS.
 */
const STRICT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Response fields that carry a secret: a route answering one must declare `credentials: true`. */
const SECRET_FIELDS = new Set(['key', 'api_key', 'access_token', 'refresh_token', 'secret'])

/** Whether a response schema (through nested objects, arrays and unions) has a secret field. */
function carriesSecret(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false
  const { properties, items, anyOf, oneOf } = schema as Record<string, unknown>
  if (properties && typeof properties === 'object') {
    for (const [name, field] of Object.entries(properties)) {
      if (SECRET_FIELDS.has(name) || carriesSecret(field)) return true
    }
  }
  return [items, ...((anyOf as unknown[]) ?? []), ...((oneOf as unknown[]) ?? [])].some(carriesSecret)
}

/** The `slug` string format: the one slug rule of `src/org/slug.ts`, also used by the CLI. */
function slugFormat(ajv: { addFormat: (name: string, format: object) => unknown }) {
  ajv.addFormat('slug', { type: 'string', validate: (value: string) => slugProblem(value) === null })
  return ajv
}

/** The fields a body schema requires. */
function requiredFields(schema: unknown): string[] {
  return (schema as { required?: string[] } | undefined)?.required ?? []
}

/** A request without a body for a route whose body has required fields. */
function missingBody(schema: unknown): AppError {
  const fields = requiredFields(schema)
  return new AppError(
    'invalid_request',
    `the request body is missing: send a JSON object with ${fields.join(', ')} (content-type: application/json)`,
    { details: fields.map((field) => ({ field, message: `${field} is required` })) },
  )
}

/** Whether the request carries a body at all (a length above zero, or chunked). */
function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/** A hop count as the function Fastify builds from one (its types do not list the number form). */
function trustProxyOption(
  value: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value
}

/** The one log line of a request. */
function logRequest(request: FastifyRequest, reply: FastifyReply, elapsedMs = reply.elapsedTime): void {
  // A request refused before authentication finished (401, 403, 415) has no caller yet.
  const caller: Caller | null = request.caller ?? null
  writeRequestLine(request.log, {
    method: request.method,
    url: request.url,
    status: reply.statusCode,
    ms: Math.round(elapsedMs * 100) / 100,
    org: caller && 'organizationId' in caller ? caller.organizationId : undefined,
  })
}

/** The path of the first string (or key) of a parsed body holding a NUL character; null when none does. */
function nulField(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(body)' : null
  if (value === null || typeof value !== 'object') return null
  for (const [key, item] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key
    if (key.includes('\u0000')) return at
    const found = nulField(item, at)
    if (found !== null) return found
  }
  return null
}

/** The 400 for a NUL character in a request's URL or body. */
function nulRefusal(field: string): AppError {
  const message = `${field} must not contain a NUL character (\\u0000 or %00)`
  return new AppError('invalid_request', message, { details: [{ field, message }] })
}

/** A route's path as a pattern matching the concrete paths it serves (`:name` is one segment). */
function pathPattern(url: string): RegExp {
  const escaped = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  return new RegExp(`^${escaped}/?$`)
}

/**
 * Contexts whose routes take no credential unless they say otherwise: those in which a plugin
 * registers routes it cannot give a `config.auth` (the reference page's Scalar plugin).
 */
const openContexts = new WeakSet<object>()

type AjvPlugins = NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>

/** How each built app starts draining (see `startDraining`). */
const drainers = new WeakMap<App, () => void>()

/**
 * From now on every answer of `app` carries `connection: close`, so each keep-alive connection
 * closes once its request in flight is answered instead of waiting for another; the first step
 * of a graceful stop (src/server.ts), before the app closes the connections left idle.
 */
export function startDraining(app: App): void {
  drainers.get(app)?.()
}

export interface BuildAppOptions {
  /** Adds the demo's own endpoints (`strata serve --demo`): `GET /v1/demo/accounts`. */
  demo?: boolean
  /** The in-process indexer's commits (`strata serve` with an indexer): they wake the push parts at once. */
  commits?: CommitSignal
  /** Where the web console's build is (console/dist by default). */
  consoleDist?: string
}

/** Assembles the HTTP application. It never listens: `serve` does. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<App> {
  const app = createFastify(ctx)
  let draining = false
  drainers.set(app, () => {
    draining = true
  })
  answerClientErrors(app, ctx)
  limitConnectionsPerClient(app.server, ctx.config.maxConnectionsPerClient, ctx.logger)

  app.decorateRequest<Caller | null>('caller', null)
  app.decorateRequest<RequestView | null>('view', null)
  // JSON as Fastify parses it, except an empty body: a route without a body (a DELETE sent with
  // content-type: application/json, as many clients do) has nothing to parse, and a route whose
  // body fields are all optional reads it as {}.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body)
    if (text !== '') {
      // A NUL character is no field's value, and PostgreSQL cannot store one in text: refused here,
      // once for every route, before any handler sends it to the store (a 400, never a 500).
      if (!text.includes('u0000')) return parseJson(request, text, done)
      return parseJson(request, text, (error: Error | null, value?: unknown) => {
        if (error) return done(error, undefined)
        const field = nulField(value, '')
        return field === null ? done(null, value) : done(nulRefusal(field), undefined)
      })
    }
    const schema = request.routeOptions.schema?.body
    if (schema === undefined) return done(null, undefined)
    if (requiredFields(schema).length > 0) return done(missingBody(schema), undefined)
    return done(null, {})
  })
  app.addSchema(ErrorEnvelope)
  await app.register(swagger, buildOpenApiOptions())
  // CORS, when configured, before the onRoute hook below (its preflight route `OPTIONS *` reads no
  // credential) and before the onRequest hook (a refusal carries the CORS headers, so a page can
  // read it).
  if (ctx.config.corsOrigins !== null) await registerCors(app, ctx.config.corsOrigins)

  // Every route must say which credential it takes; a forgotten one fails at start-up, not in production.
  // Every route also refuses query parameters it does not declare, so a new route cannot forget to.
  // The methods each path answers, for the 405 of a known path asked with another method.
  const routes: Array<{ pattern: RegExp; methods: string[] }> = []
  app.addHook('onRoute', function (route) {
    routes.push({ pattern: pathPattern(route.url), methods: [route.method].flat() })
    // A plugin's routes cannot declare a credential: the context registering the plugin does.
    if (route.config?.auth === undefined && openContexts.has(this)) {
      route.config = { ...route.config, auth: 'none' }
    }
    if (route.config?.auth === undefined) {
      throw new Error(`route ${route.method} ${route.url} declares no auth`)
    }
    route.schema ??= {}
    // A response with a secret in it must not be kept by any cache: the route says so once in its
    // config, and one that forgets fails at start-up.
    const responseSchemas = Object.values((route.schema.response ?? {}) as Record<string, unknown>)
    if (responseSchemas.some(carriesSecret) && route.config.credentials !== true) {
      throw new Error(
        `route ${route.method} ${route.url} answers a secret but does not declare credentials: true`,
      )
    }
    if (route.config.auth === 'api_key') addMinLedger(route, ctx)
    const query = route.schema.querystring as Record<string, unknown> | undefined
    if (route.config.anyQuery === true) {
      if (query !== undefined)
        throw new Error(`route ${route.method} ${route.url} reads any query but declares one`)
    } else
      route.schema.querystring = query
        ? { ...query, additionalProperties: false }
        : { type: 'object', properties: {}, additionalProperties: false }
    // Which every route can therefore answer: 400 for such a parameter, documented where missing.
    const responses = (route.schema.response ?? {}) as Record<string, unknown>
    if (!Object.keys(responses).some((status) => status.startsWith('4'))) {
      route.schema.response = { ...responses, ...errorResponses('invalid_request') }
    }
  })

  // One hook (each hook costs a turn of Fastify's hook runner on every request): the request id,
  // the content type, then authentication and the organization quota, before validation, so
  // 401 and 429 come before 400. A callback hook: when every step is answered in this turn
  // (SQLite, the in-memory limiter) the request goes on with no promise; otherwise after them.
  app.addHook('onRequest', (request, reply, done) => {
    let admitted: Awaitable<void>
    try {
      admitted = admit(request, reply)
    } catch (error) {
      done(error as Error)
      return
    }
    if (admitted instanceof Promise) admitted.then(() => done(), done)
    else done()
  })

  /** The checks of the `onRequest` hook; throws (or rejects) with the refusal. */
  const admit = (request: FastifyRequest, reply: FastifyReply): Awaitable<void> => {
    reply.header('x-request-id', request.id)
    // A NUL character in the path or the query (%00) is refused before anything reads the store
    // with it: the key lookup, the snapshot seek (PostgreSQL cannot hold one in text).
    if (request.url.includes('%00') || request.url.includes('\u0000')) throw nulRefusal('url')
    const route = request.routeOptions
    const bodySchema = route.schema?.body
    if (BODY_METHODS.has(request.method) && bodySchema && !carriesBody(request)) {
      // No body at all: say so (a 415 would blame a content type nobody sent), unless every field
      // is optional.
      if (requiredFields(bodySchema).length > 0) throw missingBody(bodySchema)
      request.body = {}
    } else if (BODY_METHODS.has(request.method) && bodySchema) {
      const type = request.headers['content-type']
      if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
        throw new AppError(
          'unsupported_media_type',
          'the request body must be sent as content-type: application/json',
        )
      }
    }
    const auth: RouteAuth = route.config?.auth ?? 'none'
    const seek = route.config?.seek?.(request) ?? null
    return andThen(authenticate(ctx, request, auth, route.config?.scope, seek), (caller) => {
      request.caller = caller
      // An invalid address is the caller's mistake, caught before it spends the organization's quota.
      // Every route's `address` is checked here, once: handlers take it as valid.
      const address = (request.params as { address?: unknown } | undefined)?.address
      if (typeof address === 'string') requireAddress(address)
      return enforceRateLimit(ctx, caller, reply)
    })
  }

  // The headers every answer carries, whoever sent it (a route, the error handler, the 404 handler):
  // never sniff a type; never cache a credential; an HTML page runs nothing and is framed nowhere.
  // A successful GET data answer gets its ETag and Cache-Control, and a 304 when the caller holds it
  // (after the rate limit, which counted it: see docs/api.md). Last, the answer is compressed when
  // the request asks (see `compressAnswer`).
  const settle = ctx.database.committed.settle
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff')
    if (draining) reply.header('connection', 'close')
    const config = request.routeOptions.config
    if (config?.credentials === true) reply.headers(NO_STORE)
    const type = reply.getHeader('content-type')
    if (isDocumentType(type)) {
      reply.headers(DOCUMENT_HEADERS)
      if ((type as string).startsWith('text/html') && !reply.hasHeader('content-security-policy'))
        reply.header('content-security-policy', STRICT_CSP)
    }
    const sent =
      config?.auth === 'api_key' && reply.statusCode === 200 && request.method !== 'POST'
        ? cacheDataAnswer(request, reply, payload)
        : payload
    const answer = compressAnswer(request, reply, sent)
    // A write the API answers is seen by every replica's next request: on PostgreSQL it is
    // answered once every replica that answers from memory has received it (CommitWatch.settle).
    if (settle !== null && !READ_METHODS.has(request.method) && reply.statusCode < 400) {
      settle().then(
        () => done(null, answer),
        () => done(null, answer),
      )
    } else done(null, answer)
  })

  // A callback hook: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const elapsedMs = reply.elapsedTime
    ctx.metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      elapsedMs / 1000,
    )
    logRequest(request, reply, elapsedMs)
    done()
  })

  app.setErrorHandler(createErrorHandler(ctx.health))
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(', ')
      return sendError(
        new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allow}`, {
          headers: { allow },
        }),
        request,
        reply,
      )
    }
    return sendError(new AppError('not_found', `no route ${request.method} ${path}`), request, reply)
  })

  registerIdempotency(app, ctx)
  registerHealthRoutes(app, ctx)
  registerReadinessRoutes(app, ctx)
  registerSignupRoutes(app, ctx)
  registerAuthRoutes(app, ctx)
  registerKeyRoutes(app, ctx)
  registerWebhookRoutes(app, ctx)
  registerOrgRoutes(app, ctx)
  registerAuditLogRoutes(app, ctx)
  registerPositionRoutes(app, ctx)
  registerAllPositionsRoute(app, ctx)
  registerProtocolListRoute(app, ctx)
  registerLedgerRoutes(app, ctx)
  registerActivityRoutes(app, ctx)
  registerTvlRoutes(app, ctx)
  registerProtocolRoutes(app, ctx)
  registerStreamRoutes(app, ctx, options.commits)
  registerWebhookRedelivery(app, ctx, registerWebhookDelivery(app, ctx, options.commits))
  if (options.demo) registerDemoRoutes(app, ctx)

  app.get('/v1/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger())
  // The reference page and Scalar's script (whose plugin registers routes that take no credential).
  await app.register(async (docs: App) => {
    openContexts.add(docs)
    await registerReferencePage(docs, 'Strata positions API reference')
  })

  // The web console (console/), served from its build.
  registerConsole(app, options.consoleDist)

  // The address `serve` prints, opened in a browser, leads to the reference page.
  for (const url of ['/', '/v1']) {
    app.get(url, { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) =>
      reply.redirect(REFERENCE_PAGE_PATH, 302),
    )
  }

  await app.ready()
  return app
}
