import type {} from 'fastify'
import type { IndexerHead } from '../store/positions-read.ts'
import type { SeekResult, SnapshotSeek } from '../store/request-state.ts'

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
    /** The serving snapshots the route asked authentication's statement to find (see `seek`). */
    servingSnapshots: SeekResult | null
  }
  interface FastifyContextConfig {
    auth?: RouteAuth
    /** API-key scope the route needs. */
    scope?: string
    /**
     * The serving snapshots an API-key route's answer will look up, found by the same statement
     * that reads the key's authentication generation (one statement per request instead of two).
     * Null when the request cannot say (a malformed pin: validation refuses it afterwards).
     */
    seek?: (request: FastifyRequest) => SnapshotSeek | null
  }
}
