import { randomBytes } from 'node:crypto'
import { createReadCaches, type ReadCaches } from './api/caches.ts'
import { type ApiMetrics, createApiMetrics } from './api/metrics.ts'
import { createKeyUsageRecorder, type KeyUsageRecorder } from './auth/key-usage.ts'
import { createTokenSigner, type TokenSigner } from './auth/tokens.ts'
import { type Clock, systemClock } from './clock.ts'
import { type Config, PLAN_QUOTA_MULTIPLIER, type Plan } from './config.ts'
import { createHealthBoard, type HealthBoard } from './health.ts'
import type { Logger } from './logger.ts'
import { createOrganizationUsageRecorder, type OrganizationUsageRecorder } from './org/usage.ts'
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from './rate-limit/rate-limiter.ts'
import { type ApiKeyLookup, createApiKeyLookup } from './store/api-keys.ts'
import { createDatabase, type Database } from './store/db.ts'
import { createPositionsReader, type PositionsReader } from './store/positions-read.ts'
import { resolveSecret } from './store/secrets.ts'

/** Everything a request handler or command needs, passed explicitly: no globals. */
export interface AppContext {
  config: Config
  logger: Logger
  clock: Clock
  database: Database
  rateLimiter: RateLimiter
  tokens: TokenSigner
  keyPepper: string
  /** The admin token in force: configured, or generated at start-up and printed once. */
  adminToken: string
  adminTokenGenerated: boolean
  keyUsage: KeyUsageRecorder
  /** Each organization's requests counted against its quota, per UTC day (`GET /v1/org/usage`). */
  orgUsage: OrganizationUsageRecorder
  /** Point-in-time reads (checkpoint, snapshots, rates, prices), prepared once per process. */
  reader: PositionsReader
  metrics: ApiMetrics
  /** What the process's parts report of themselves, read by `/v1/health` (src/health.ts). */
  health: HealthBoard
  /** The API key with a given hash (or none), its organization's plan, and the generation read with them. */
  lookupApiKey: (keyHash: string) => Promise<ApiKeyLookup>
  /**
   * Every cache that outlives a request (key records, request views, rendered answers, the
   * network description, activity pages), each with its invalidation rule: see `ReadCaches`.
   */
  caches: ReadCaches
  /** Requests per window for a plan. */
  quotaFor(plan: string): number
  close(): Promise<void>
}

export interface CreateContextOptions {
  clock?: Clock
  database?: Database
  /** The board an in-process indexer reports to; a new one otherwise. */
  health?: HealthBoard
}

export async function createContext(
  config: Config,
  logger: Logger,
  options: CreateContextOptions = {},
): Promise<AppContext> {
  const clock = options.clock ?? systemClock
  const database = options.database ?? createDatabase(config.database)
  const jwtSecret = await resolveSecret(database.db, config.jwtSecret, 'jwt_secret')
  const keyPepper = await resolveSecret(database.db, config.keyPepper, 'key_pepper')
  const health = options.health ?? createHealthBoard(() => clock.now())
  const rateLimiter = config.redisUrl
    ? createRedisRateLimiter({
        url: config.redisUrl,
        clock,
        logger,
        health,
        commandTimeoutMs: config.redisTimeoutMs,
        breakerFailures: config.redisBreakerFailures,
        breakerCoolDownMs: config.redisBreakerCoolDownMs,
        replicas: config.replicas,
      })
    : createMemoryRateLimiter(clock)
  const tokens = createTokenSigner({
    secret: jwtSecret,
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    accessTtlS: config.accessTokenTtlS,
    refreshTtlS: config.refreshTokenTtlS,
  })
  const keyUsage = createKeyUsageRecorder(database.db, logger, config.lastUsedFlushMs, health)
  const orgUsage = createOrganizationUsageRecorder(database.db, logger, config.lastUsedFlushMs, health)
  const reader = createPositionsReader(database)
  const adminToken = config.adminToken ?? `adm_${randomBytes(24).toString('base64url')}`
  const metrics = createApiMetrics(
    async () => reader.head(),
    () => Math.floor(clock.now() / 1000),
    { watchLive: database.committed.live },
  )

  return {
    config,
    logger,
    clock,
    database,
    rateLimiter,
    tokens,
    keyPepper,
    adminToken,
    adminTokenGenerated: config.adminToken === null,
    keyUsage,
    orgUsage,
    reader,
    metrics,
    health,
    lookupApiKey: createApiKeyLookup(database),
    caches: createReadCaches({ config, database, reader, registry: metrics.registry }),
    quotaFor(plan) {
      return config.rateLimitPerMinute * (PLAN_QUOTA_MULTIPLIER[plan as Plan] ?? 1)
    },
    async close() {
      await keyUsage.close()
      await orgUsage.close()
      await rateLimiter.close()
      if (!options.database) await database.close()
    },
  }
}
