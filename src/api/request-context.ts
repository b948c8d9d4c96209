import type {} from 'fastify'
import type { IndexerHead } from '../store/positions-read.ts'

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
    /** The indexer checkpoint, read by API-key authentication in the same statement as its generation. */
    indexerHead: IndexerHead | null
  }
  interface FastifyContextConfig {
    auth?: RouteAuth
    /** API-key scope the route needs. */
    scope?: string
  }
}
