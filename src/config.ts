/**
 * The only reader of process.env. Every variable is validated at once so a bad deployment stops
 * with one message that lists every problem. The variables, their defaults and bounds are listed in
 * config-env.ts.
 */

import { isIP } from 'node:net'
import { ENV_VARS, type EnvName } from './config-env.ts'

export type Plan = 'free' | 'pro' | 'enterprise'
export const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise']

/** How many times the free plan's quota each plan gets. */
export const PLAN_QUOTA_MULTIPLIER: Record<Plan, number> = { free: 1, pro: 10, enterprise: 100 }

/** false, true (every hop), a hop count, or the addresses/CIDRs of trusted proxies. */
export type TrustProxy = boolean | number | string[]

/**
 * PostgreSQL's bounds on every wait, in milliseconds (src/store/db.ts applies them): `timeoutMs`
 * for the API's connections and statements, `writeTimeoutMs` for the indexer's batch transactions
 * and migrations. Absent: the defaults of config-env.ts.
 */
export interface DatabaseTimeouts {
  timeoutMs: number
  writeTimeoutMs: number
}

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; timeouts?: DatabaseTimeouts; poolSize?: number }

export interface Config {
  port: number
  host: string
  /** Port of the Prometheus `/metrics` listener; null: no metrics listener. */
  metricsPort: number | null
  database: DatabaseConfig
  redisUrl: string | null
  /** A Redis command not answered within this many milliseconds fails. */
  redisTimeoutMs: number
  /** Failed Redis commands in a row that open the rate limiter's breaker. */
  redisBreakerFailures: number
  /** How long the open breaker leaves Redis alone before one probe, in milliseconds. */
  redisBreakerCoolDownMs: number
  /** Instances sharing the quotas: while Redis cannot count, each allows 1/replicas (rounded up). */
  replicas: number
  stellarRpcUrl: string | null
  /** Path or URL of the network description (contracts and assets to watch). */
  networkSource: string | null
  adminToken: string | null
  jwtSecret: string | null
  keyPepper: string | null
  accessTokenTtlS: number
  refreshTokenTtlS: number
  maxPriceAgeS: number
  /** Bytes of rendered snapshot answers kept in memory (0: no answer cache). */
  answerCacheBytes: number
  /** Seconds between heartbeat comments of an open stream of position changes. */
  streamHeartbeatS: number
  /** How often the checkpoint watcher reads the checkpoint while streams are open, in milliseconds. */
  streamPollMs: number
  /** Webhook URLs may use http: and reach loopback or private addresses (tests, development). */
  webhooksAllowLoopback: boolean
  /** Whether this process delivers the webhooks' outbox (`STRATA_WEBHOOK_DELIVERY`). */
  webhookDelivery: boolean
  /** Milliseconds a webhook receiver has to answer one delivery. */
  webhookTimeoutMs: number
  /** Milliseconds to wait before each retry of a failing delivery; after the last, the subscription is disabled. */
  webhookRetryScheduleMs: readonly number[]
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** `json` or `pretty` log lines; null: pretty on a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | null
  /** Requests per rate-limit window for the free plan; other plans are multiples. */
  rateLimitPerMinute: number
  rateLimitWindowS: number
  /** Login attempts allowed per email (and per client address) per window. */
  loginAttemptsPerWindow: number
  loginWindowS: number
  /** Signups allowed per client address per window (each runs argon2). */
  signupAttemptsPerWindow: number
  signupWindowS: number
  /** Refused credentials allowed per client address per login window; beyond, 429 until it ends. */
  refusedCredentialsPerWindow: number
  /**
   * Fastify's `trustProxy`: which proxies' `x-forwarded-for` names the client (`request.ip`, used
   * by the throttles and the audit log). false trusts none; a number trusts that many hops.
   */
  trustProxy: TrustProxy
  /** How often buffered API-key `last_used_at` times are written. */
  lastUsedFlushMs: number
  /** Bytes of rendered activity items and pages kept in memory (0: no activity cache). */
  activityCacheBytes: number
  bodyLimitBytes: number
  /** Time a client has to send a whole request (headers and body), in milliseconds. */
  requestTimeoutMs: number
  /** Connections one client address may hold open at once; 0: no limit. */
  maxConnectionsPerClient: number
  /** How long a signalled `serve` waits for the requests in flight before it exits anyway. */
  shutdownTimeoutMs: number
  /** Health says `indexer_behind` when the checkpoint's ledger closed longer ago; 0: not checked. */
  maxIndexerLagS: number
  /** Readiness fails when the checkpoint's ledger closed longer ago; 0: not checked. */
  readyMaxLagS: number
  /** The origins CORS allows (STRATA_CORS_ORIGINS); null: CORS off. */
  corsOrigins: CorsOrigins | null
  jwtIssuer: string
  jwtAudience: string
}

export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
const LOG_FORMATS = ['json', 'pretty'] as const

type Env = Record<string, string | undefined>

/** Reads and validates the configuration; throws one ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = []

  // Each reader takes the variable's default and bounds from ENV_VARS, the one list of them.
  /** The value as set, else the listed default; null when neither. */
  const str = (name: EnvName): string | null => {
    const raw = env[name]
    return raw === undefined || raw === '' ? ENV_VARS[name].default : raw
  }
  /** A variable whose list entry has a default: never null. */
  const text = (name: EnvName): string => str(name) ?? ''
  const int = (name: EnvName): number => {
    const { default: fallback, min = 0, max = Number.MAX_SAFE_INTEGER } = ENV_VARS[name]
    const raw = str(name) ?? '0'
    if (!/^\d+$/.test(raw.trim())) {
      problems.push(`${name} must be a whole number, got "${raw}"`)
      return Number(fallback ?? 0)
    }
    const value = Number(raw.trim())
    if (value < min || value > max) {
      problems.push(`${name} must be between ${min} and ${max}, got ${value}`)
      return Number(fallback ?? 0)
    }
    return value
  }
  const oneOf = <T extends string>(name: EnvName, allowed: readonly T[]): T | null => {
    const value = str(name)
    if (value === null || (allowed as readonly string[]).includes(value)) return value as T | null
    problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`)
    return ENV_VARS[name].default as T | null
  }
  const secret = (name: EnvName, minLength: number): string | null => {
    const value = str(name)
    if (value !== null && value.length < minLength) {
      problems.push(`${name} must be at least ${minLength} characters`)
      return null
    }
    return value
  }
  const url = (name: EnvName, protocols: readonly string[]): string | null => {
    const value = str(name)
    if (value === null) return null
    const problem = urlProblem(name, value, protocols)
    if (problem === null) return value
    problems.push(problem)
    return null
  }

  const config: Config = {
    port: int('PORT'),
    host: text('HOST'),
    metricsPort: str('METRICS_PORT') === null ? null : int('METRICS_PORT'),
    database: parseDatabaseUrl(
      text('DATABASE_URL'),
      problems,
      { timeoutMs: int('STRATA_DB_TIMEOUT_MS'), writeTimeoutMs: int('STRATA_DB_WRITE_TIMEOUT_MS') },
      int('STRATA_DB_POOL_SIZE'),
    ),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    redisTimeoutMs: int('STRATA_REDIS_TIMEOUT_MS'),
    redisBreakerFailures: int('STRATA_REDIS_BREAKER_FAILURES'),
    redisBreakerCoolDownMs: int('STRATA_REDIS_BREAKER_COOLDOWN_MS'),
    replicas: int('STRATA_REPLICAS'),
    stellarRpcUrl: url('STELLAR_RPC_URL', RPC_URL_PROTOCOLS),
    networkSource: str('STRATA_NETWORK'),
    adminToken: secret('STRATA_ADMIN_TOKEN', 16),
    jwtSecret: secret('STRATA_JWT_SECRET', 32),
    keyPepper: secret('STRATA_KEY_PEPPER', 32),
    accessTokenTtlS: int('ACCESS_TOKEN_TTL_S'),
    refreshTokenTtlS: int('REFRESH_TOKEN_TTL_S'),
    maxPriceAgeS: int('MAX_PRICE_AGE_S'),
    answerCacheBytes: int('STRATA_ANSWER_CACHE_MB') * 1024 * 1024,
    streamHeartbeatS: int('STRATA_STREAM_HEARTBEAT_S'),
    streamPollMs: int('STRATA_STREAM_POLL_MS'),
    webhooksAllowLoopback: oneOf('STRATA_WEBHOOKS_ALLOW_LOOPBACK', ['0', '1'] as const) === '1',
    webhookDelivery: oneOf('STRATA_WEBHOOK_DELIVERY', ['on', 'off'] as const) !== 'off',
    webhookTimeoutMs: int('STRATA_WEBHOOK_TIMEOUT_MS'),
    webhookRetryScheduleMs: parseDurations(
      'STRATA_WEBHOOK_RETRY_SCHEDULE',
      text('STRATA_WEBHOOK_RETRY_SCHEDULE'),
      problems,
    ),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS) ?? 'info',
    logFormat: oneOf('LOG_FORMAT', LOG_FORMATS),
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE'),
    rateLimitWindowS: 60,
    loginAttemptsPerWindow: int('LOGIN_ATTEMPTS_PER_WINDOW'),
    loginWindowS: int('LOGIN_WINDOW_S'),
    signupAttemptsPerWindow: int('SIGNUP_ATTEMPTS_PER_WINDOW'),
    signupWindowS: int('SIGNUP_WINDOW_S'),
    refusedCredentialsPerWindow: int('REFUSED_CREDENTIALS_PER_WINDOW'),
    trustProxy: parseTrustProxy(str('TRUST_PROXY'), problems),
    lastUsedFlushMs: int('LAST_USED_FLUSH_MS'),
    activityCacheBytes: int('STRATA_ACTIVITY_CACHE_MB') * 1024 * 1024,
    bodyLimitBytes: int('BODY_LIMIT_BYTES'),
    requestTimeoutMs: int('STRATA_REQUEST_TIMEOUT_MS'),
    maxConnectionsPerClient: int('STRATA_MAX_CONNECTIONS_PER_CLIENT'),
    shutdownTimeoutMs: int('STRATA_SHUTDOWN_TIMEOUT_MS'),
    maxIndexerLagS: int('STRATA_MAX_INDEXER_LAG_S'),
    readyMaxLagS: int('STRATA_READY_MAX_LAG_S'),
    corsOrigins: parseCorsOrigins(str('STRATA_CORS_ORIGINS'), problems),
    jwtIssuer: text('STRATA_JWT_ISSUER'),
    jwtAudience: text('STRATA_JWT_AUDIENCE'),
    ...overrides,
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/**
 * A comma-separated list of durations (`500ms`, `5s`, `30m`, `2h`; a decimal number of a unit), in
 * milliseconds, each between 1 ms and 24 h; at least one.
 */
export function parseDurations(name: string, value: string, problems: string[]): number[] {
  const out: number[] = []
  for (const part of value.split(',')) {
    const match = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h)\s*$/.exec(part)
    const ms = match === null ? Number.NaN : Math.round(Number(match[1]) * DURATION_UNITS_MS[match[2]!]!)
    if (!(ms >= 1 && ms <= 86_400_000)) {
      problems.push(
        `${name} must list durations such as 5s, 30m or 2h (each up to 24h), got "${part.trim()}"`,
      )
      return [1000]
    }
    out.push(ms)
  }
  return out
}

/** The schemes a Stellar RPC URL may use, whether it comes from STELLAR_RPC_URL or `--rpc-url`. */
export const RPC_URL_PROTOCOLS: readonly string[] = ['http:', 'https:']

/** What is wrong with `value` as a URL of one of `protocols`, naming the setting `name`; null: nothing. */
export function urlProblem(name: string, value: string, protocols: readonly string[]): string | null {
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    return `${name} is not a URL: "${value}"`
  }
  return protocols.includes(parsed.protocol)
    ? null
    : `${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`
}

/**
 * The origins CORS allows: exact origins (scheme, host and port, as a browser's `Origin` header
 * writes them), or `*`, any origin. `*` is safe here because no credential is ambient: the API
 * reads no cookie, and a page can only send a key or token its own script holds.
 */
export type CorsOrigins = readonly string[] | '*'

/** STRATA_CORS_ORIGINS: unset (null), `*`, or a comma-separated list of `http(s)://host[:port]`. */
function parseCorsOrigins(value: string | null, problems: string[]): CorsOrigins | null {
  if (value === null || value.trim() === '') return null
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (entries.includes('*')) {
    if (entries.length === 1) return '*'
    problems.push('STRATA_CORS_ORIGINS must be `*` alone or a list of origins, not both')
    return null
  }
  const bad = entries.filter((entry) => {
    try {
      const url = new URL(entry)
      return (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry
    } catch {
      return true
    }
  })
  if (bad.length > 0) {
    problems.push(
      `STRATA_CORS_ORIGINS must be comma-separated origins like https://app.example.com (scheme, host and optional port; no path, no trailing slash, lower case) or *, got ${bad.map((b) => `"${b}"`).join(', ')}`,
    )
    return null
  }
  return entries
}

// proxy-addr's names for well-known ranges, which Fastify's trustProxy accepts in a list.
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** TRUST_PROXY: unset or `false`, `true`, a hop count, or a comma-separated list of addresses/CIDRs. */
function parseTrustProxy(value: string | null, problems: string[]): TrustProxy {
  const text = value?.trim().toLowerCase() ?? 'false'
  if (text === 'false' || text === '') return false
  if (text === 'true') return true
  if (/^\d+$/.test(text)) {
    const hops = Number(text)
    if (hops >= 1 && hops <= 32) return hops
    problems.push(`TRUST_PROXY hop count must be between 1 and 32, got ${hops}`)
    return false
  }
  const entries = text.split(',').map((entry) => entry.trim())
  const bad = entries.filter((entry) => {
    if (NAMED_RANGES.has(entry)) return false
    const [address = '', prefix, extra] = entry.split('/')
    const family = isIP(address)
    if (family === 0 || extra !== undefined) return true
    if (prefix === undefined) return false
    return !/^\d+$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)
  })
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY must be true, false, a hop count or a comma-separated list of addresses/CIDRs, got ${bad.map((b) => `"${b}"`).join(', ')}`,
    )
    return false
  }
  return entries
}

function parseDatabaseUrl(
  value: string,
  problems: string[],
  timeouts: DatabaseTimeouts,
  poolSize: number,
): DatabaseConfig {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\//, '')
    if (path === '') problems.push('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./strata.db')
    return { kind: 'sqlite', path: path || './strata.db' }
  }
  if (value.startsWith('postgres://') || value.startsWith('postgresql://')) {
    return { kind: 'postgres', url: value, timeouts, poolSize }
  }
  problems.push(`DATABASE_URL must be sqlite:<path> or postgres://..., got "${value}"`)
  return { kind: 'sqlite', path: './strata.db' }
}
