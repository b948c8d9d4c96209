import { isIP } from 'node:net'

/**
 * The only reader of process.env. Every variable is validated at once so a bad deployment stops
 * with one message that lists every problem.
 */

export type Plan = 'free' | 'pro' | 'enterprise'
export const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise']

/** How many times the free plan's quota each plan gets. */
export const PLAN_QUOTA_MULTIPLIER: Record<Plan, number> = { free: 1, pro: 10, enterprise: 100 }

/** false, true (every hop), a hop count, or the addresses/CIDRs of trusted proxies. */
export type TrustProxy = boolean | number | string[]

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }

export interface Config {
  port: number
  host: string
  /** Port of the Prometheus `/metrics` listener; null: no metrics listener. */
  metricsPort: number | null
  database: DatabaseConfig
  redisUrl: string | null
  stellarRpcUrl: string | null
  /** Path or URL of the network description (contracts and assets to watch). */
  networkSource: string | null
  adminToken: string | null
  jwtSecret: string | null
  keyPepper: string | null
  accessTokenTtlS: number
  refreshTokenTtlS: number
  maxPriceAgeS: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Requests per rate-limit window for the free plan; other plans are multiples. */
  rateLimitPerMinute: number
  rateLimitWindowS: number
  /** Login attempts allowed per email (and per client address) per window. */
  loginAttemptsPerWindow: number
  loginWindowS: number
  /** Signups allowed per client address per window (each runs argon2). */
  signupAttemptsPerWindow: number
  signupWindowS: number
  /**
   * Fastify's `trustProxy`: which proxies' `x-forwarded-for` names the client (`request.ip`, used
   * by the throttles and the audit log). false trusts none; a number trusts that many hops.
   */
  trustProxy: TrustProxy
  /** How often buffered API-key `last_used_at` times are written. */
  lastUsedFlushMs: number
  bodyLimitBytes: number
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

type Env = Record<string, string | undefined>

/** Reads and validates the configuration; throws one ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = []

  const int = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!/^\d+$/.test(raw.trim())) {
      problems.push(`${name} must be a whole number, got "${raw}"`)
      return fallback
    }
    const value = Number(raw.trim())
    if (value < min || value > max) {
      problems.push(`${name} must be between ${min} and ${max}, got ${value}`)
      return fallback
    }
    return value
  }
  const str = (name: string): string | null => {
    const raw = env[name]
    return raw === undefined || raw === '' ? null : raw
  }
  const secret = (name: string, minLength: number): string | null => {
    const value = str(name)
    if (value !== null && value.length < minLength) {
      problems.push(`${name} must be at least ${minLength} characters`)
      return null
    }
    return value
  }
  const url = (name: string, protocols: string[]): string | null => {
    const value = str(name)
    if (value === null) return null
    try {
      const parsed = new URL(value)
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`)
        return null
      }
      return value
    } catch {
      problems.push(`${name} is not a URL: "${value}"`)
      return null
    }
  }

  const database = parseDatabaseUrl(str('DATABASE_URL') ?? 'sqlite:./strata.db', problems)

  const logLevelRaw = str('LOG_LEVEL') ?? 'info'
  let logLevel: Config['logLevel'] = 'info'
  if ((LOG_LEVELS as readonly string[]).includes(logLevelRaw)) logLevel = logLevelRaw as Config['logLevel']
  else problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevelRaw}"`)

  const config: Config = {
    port: int('PORT', 3000, 0, 65535),
    host: str('HOST') ?? '127.0.0.1',
    metricsPort: str('METRICS_PORT') === null ? null : int('METRICS_PORT', 0, 0, 65535),
    database,
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    stellarRpcUrl: url('STELLAR_RPC_URL', ['http:', 'https:']),
    networkSource: str('STRATA_NETWORK'),
    adminToken: secret('STRATA_ADMIN_TOKEN', 16),
    jwtSecret: secret('STRATA_JWT_SECRET', 32),
    keyPepper: secret('STRATA_KEY_PEPPER', 32),
    accessTokenTtlS: int('ACCESS_TOKEN_TTL_S', 900, 1, 86_400),
    refreshTokenTtlS: int('REFRESH_TOKEN_TTL_S', 30 * 86_400, 60, 365 * 86_400),
    maxPriceAgeS: int('MAX_PRICE_AGE_S', 3600, 1),
    logLevel,
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    rateLimitWindowS: 60,
    loginAttemptsPerWindow: int('LOGIN_ATTEMPTS_PER_WINDOW', 10, 1, 10_000),
    loginWindowS: int('LOGIN_WINDOW_S', 300, 1, 86_400),
    signupAttemptsPerWindow: int('SIGNUP_ATTEMPTS_PER_WINDOW', 10, 1, 1_000_000),
    signupWindowS: int('SIGNUP_WINDOW_S', 3600, 1, 86_400),
    trustProxy: parseTrustProxy(str('TRUST_PROXY'), problems),
    lastUsedFlushMs: int('LAST_USED_FLUSH_MS', 1000, 10, 5000),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 64 * 1024, 1024, 16 * 1024 * 1024),
    jwtIssuer: str('STRATA_JWT_ISSUER') ?? 'strata',
    jwtAudience: str('STRATA_JWT_AUDIENCE') ?? 'strata-api',
    ...overrides,
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
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

function parseDatabaseUrl(value: string, problems: string[]): DatabaseConfig {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\//, '')
    if (path === '') problems.push('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./strata.db')
    return { kind: 'sqlite', path: path || './strata.db' }
  }
  if (value.startsWith('postgres://') || value.startsWith('postgresql://')) {
    return { kind: 'postgres', url: value }
  }
  problems.push(`DATABASE_URL must be sqlite:<path> or postgres://..., got "${value}"`)
  return { kind: 'sqlite', path: './strata.db' }
}
