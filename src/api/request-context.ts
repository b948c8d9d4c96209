import type {} from 'fastify'
import type { RequestView, SnapshotSeek } from '../store/request-state.ts'

/** Who is calling, as established by the route's guard. */
export type Caller =
  | { kind: 'none' }
  | { kind: 'admin' }
  | { kind: 'bearer'; userId: string; organizationId: string }
  | { kind: 'api_key'; keyId: string; organizationId: string; plan: string; scopes: string[] }

/** The credential a route takes. Every route declares one; start-up fails otherwise. */
export type RouteAuth = 'none' | 'admin' | 'bearer' | 'api_key'

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller
    /**
     * What this request reads of the store, opened by API-key authentication in the statement
     * that reads the key's generation (with the serving snapshots the route's `seek` declares);
     * null on routes that take another credential. Handlers read through `view.reader`.
     */
    view: RequestView | null
  }
  interface FastifyContextConfig {
    auth?: RouteAuth
    /** API-key scope the route needs. */
    scope?: string
    /**
     * The serving snapshots an API-key route's answer will look up, found by the statement that
     * opens the request's view with the key's authentication generation (one statement per
     * request instead of two). Null when the request cannot say (a malformed pin: validation
     * refuses it afterwards).
     */
    seek?: (request: FastifyRequest) => SnapshotSeek | null
    /**
     * The route answers a secret (an API key, an access or refresh token): its responses carry
     * `cache-control: no-store`. A route whose response schema has such a field must say so.
     */
    credentials?: boolean
    /**
     * The route reads no query parameter and passes every one through untouched: the console's
     * page, whose own URLs carry the page's state (`?next=`, a cursor). Every other route refuses
     * a parameter it does not declare.
     */
    anyQuery?: boolean
  }
}
