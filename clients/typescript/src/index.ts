/**
 * The typed client of the Strata positions API: an openapi-fetch client typed by the paths the
 * OpenAPI document describes (./schema.ts, generated), which sends each credential in its header
 * to the operations that take it and to no other (./credentials.ts, generated).
 *
 *   const strata = createStrataClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'strata_…' })
 *   const { data, error } = await strata.GET('/v1/users/{address}/positions/vaultprotocol', {
 *     params: { path: { address: 'G…' } },
 *   })
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { OPERATION_CREDENTIALS } from './credentials.ts'
import type { paths } from './schema.ts'

export { OPERATION_CREDENTIALS } from './credentials.ts'
export type { components, operations, paths } from './schema.ts'

/**
 * A credential: its value, or a function asked before each request that needs it (an access token
 * kept fresh with `/v1/auth/refresh`, a key read from a vault). A function answering undefined
 * sends nothing, and the API answers 401.
 */
export type Credential = string | (() => string | undefined | Promise<string | undefined>)

export interface StrataClientOptions {
  /** The server's origin, such as `http://127.0.0.1:3000` (the paths start with `/v1`). */
  baseUrl: string
  /** An API key (`strata_…`), sent in `x-svc-token` to the data endpoints. */
  apiKey?: Credential
  /** An access token from login, signup or refresh, sent as `authorization: Bearer …` to the management endpoints. */
  accessToken?: Credential
  /** The operator's admin token, sent in `x-svc-admin-token` to the admin endpoints only. */
  adminToken?: Credential
  /** The fetch to use (a test's recorder, a proxy's agent); the global fetch by default. */
  fetch?: (input: Request) => Promise<Response>
}

/**
 * The client: `GET`, `POST`, `PATCH`, `DELETE` … by path, each typed by the OpenAPI document.
 * Answers are typed as their JSON: the routes that also answer CSV (history, activities, TVL)
 * give it as text when asked with `params: { query: { format: 'csv' } }, parseAs: 'text'`.
 */
export type StrataClient = Client<paths, 'application/json'>

/**
 * Creates a client for one Strata server. Each request carries the credential its operation
 * takes (the document's `security`), unless the call sets that header itself: an API key is
 * never sent to a login, nor the admin token to a data endpoint.
 */
export function createStrataClient(options: StrataClientOptions): StrataClient {
  let origin: URL
  try {
    origin = new URL(options.baseUrl)
  } catch {
    throw new TypeError(
      `baseUrl must be an absolute URL such as http://127.0.0.1:3000 (got ${options.baseUrl})`,
    )
  }
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be an http or https URL (got ${options.baseUrl})`)
  }
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
  const credentials: Middleware = {
    async onRequest({ request, schemaPath }) {
      const scheme = OPERATION_CREDENTIALS[`${request.method} ${schemaPath}`]
      if (scheme === 'apiKey') await setHeader(request, 'x-svc-token', options.apiKey)
      else if (scheme === 'bearer') await setHeader(request, 'authorization', options.accessToken, 'Bearer ')
      else if (scheme === 'admin') await setHeader(request, 'x-svc-admin-token', options.adminToken)
      return request
    },
  }
  client.use(credentials)
  return client
}

/** Sets the header from the credential, unless the call set it or there is no credential. */
async function setHeader(request: Request, name: string, credential: Credential | undefined, prefix = '') {
  if (credential === undefined || request.headers.has(name)) return
  const value = typeof credential === 'function' ? await credential() : credential
  if (value !== undefined && value !== '') request.headers.set(name, `${prefix}${value}`)
}

type Method = 'get' | 'post' | 'patch' | 'delete'

/** What an operation answers on success (its 200 or 201 JSON body), by path and method. */
export type Answer<P extends keyof paths, M extends Method = 'get'> = paths[P][M] extends {
  responses: infer R
}
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : never
  : never

/**
 * Every error answer's envelope: `{ error: { code, message, details? }, meta: { request_id,
 * response_time_ms } }`; every operation's `error` is this.
 */
export type ErrorEnvelope = paths['/v1/org']['get']['responses'][401]['content']['application/json']

/** An account's FxDAO vaults. */
export type VaultPositions = Answer<'/v1/users/{address}/positions/vaultprotocol'>
/** An account's Blend lending positions. */
export type LendingPositions = Answer<'/v1/users/{address}/positions/lendingprotocol'>
/** An account's Soroswap liquidity. */
export type AmmPositions = Answer<'/v1/users/{address}/positions/ammprotocol'>
/** An account's DeFindex vault shares. */
export type YieldPositions = Answer<'/v1/users/{address}/positions/yieldprotocol'>
/** Every protocol's positions of an account in one answer. */
export type AllPositions = Answer<'/v1/users/{address}/positions'>
/** Every protocol's positions valued at one ledger, with totals. */
export type AllPositionsAt = Answer<'/v1/users/{address}/positions/at/{ledger}'>
/** One page of an account's actions across protocols. */
export type Activities = Answer<'/v1/users/{address}/activities'>
/** One page of the indexed protocols. */
export type Protocols = Answer<'/v1/protocols'>
/** The service's health and the indexer's checkpoint. */
export type Health = Answer<'/v1/health'>
/** The caller's organization. */
export type Organization = Answer<'/v1/org'>
/** Signup's answer: the organization, its first user's tokens and its first API key. */
export type Signup = Answer<'/v1/auth/signup', 'post'>
/** Login's answer: an access token and a refresh token. */
export type Login = Answer<'/v1/auth/login', 'post'>
/** A created API key, shown once. */
export type CreatedApiKey = Answer<'/v1/org/api-keys/new', 'post'>
/** Every key of the organization (prefixes and metadata, no secrets). */
export type ApiKeys = Answer<'/v1/org/api-keys'>
/** One page of the organization's audit log. */
export type AuditLog = Answer<'/v1/org/audit-log'>
