/**
 * Every environment variable Strata reads, in one list: `loadConfig` takes each one's default and
 * bounds from here, `strata serve --help` prints it, and README's configuration table is generated
 * from it (`npm run docs:env`; a test fails when they differ). A new variable is one entry here
 * and one line in `loadConfig`; reading a name that is not listed does not type-check.
 */

export interface EnvVar {
  /** The value used when the variable is unset, as it would be written; null: none. */
  default: string | null
  /** What unset means when there is no default value (for the docs). */
  unset?: string
  /** Bounds of a whole-number variable. */
  min?: number
  max?: number
  /** One sentence for the docs; `code` in backticks. */
  meaning: string
}

const defineEnv = <T extends Record<string, EnvVar>>(vars: T): { readonly [K in keyof T]: EnvVar } => vars

export const ENV_VARS = defineEnv({
  PORT: { default: '3000', min: 0, max: 65535, meaning: 'port the API listens on (0: any free port)' },
  HOST: {
    default: '127.0.0.1',
    meaning: 'address the API listens on (`0.0.0.0` for every interface)',
  },
  DATABASE_URL: {
    default: 'sqlite:./strata.db',
    meaning:
      '`sqlite:<path>` or `postgres://…`; `serve --demo` uses a file of its own under `./.strata/` unless this is set',
  },
  STRATA_DB_TIMEOUT_MS: {
    default: '5000',
    min: 100,
    max: 3_600_000,
    meaning:
      'PostgreSQL: the longest the API waits for the database (a connection, a statement, a transaction left idle), in milliseconds; past it the request answers `503 unavailable`',
  },
  STRATA_DB_POOL_SIZE: {
    default: '10',
    min: 1,
    max: 1000,
    meaning:
      'PostgreSQL: the most connections one process opens for its requests and writes (besides its notification connection and, when it indexes, its lock connection); see docs/operations.md for N replicas',
  },
  STRATA_DB_WRITE_TIMEOUT_MS: {
    default: '300000',
    min: 1000,
    max: 86_400_000,
    meaning:
      "PostgreSQL: the same bound for the indexer's batch transactions and for migrations, which may need longer, in milliseconds",
  },
  REDIS_URL: {
    default: null,
    unset: 'in-memory counters',
    meaning: 'Redis for rate-limit counters shared by several instances',
  },
  STRATA_REDIS_TIMEOUT_MS: {
    default: '250',
    min: 10,
    max: 10_000,
    meaning:
      'a Redis command not answered within this fails, and the request is counted by this instance alone, in milliseconds',
  },
  STRATA_REDIS_BREAKER_FAILURES: {
    default: '3',
    min: 1,
    max: 1000,
    meaning:
      'failed Redis commands in a row that open the breaker: every request is then counted by its instance alone, without waiting for Redis',
  },
  STRATA_REDIS_BREAKER_COOLDOWN_MS: {
    default: '5000',
    min: 100,
    max: 600_000,
    meaning:
      'how long an open breaker leaves Redis alone before one probe (success closes it), in milliseconds',
  },
  STRATA_REPLICAS: {
    default: '1',
    min: 1,
    max: 1000,
    meaning:
      'API instances sharing the quotas: while Redis cannot count, each instance allows 1/`STRATA_REPLICAS` of every quota and throttle (rounded up)',
  },
  STELLAR_RPC_URL: {
    default: null,
    unset: 'the API serves what a separate `strata index` writes',
    meaning:
      'Stellar RPC that `strata serve` indexes in-process (and `strata index` reads without `--rpc-url`)',
  },
  STRATA_NETWORK: {
    default: null,
    unset: '`<rpc origin>/network.json`',
    meaning:
      'network description (contracts and assets): `pubnet` (the shipped mainnet description), or a path or URL',
  },
  STRATA_ADMIN_TOKEN: {
    default: null,
    unset: 'generated and printed at start-up',
    meaning: 'admin token for `POST /v1/org/api-keys` (16+ characters)',
  },
  STRATA_JWT_SECRET: {
    default: null,
    unset: 'generated once, kept in the database',
    meaning: 'JWT signing secret (32+ characters); set it in production, the same on every instance',
  },
  STRATA_KEY_PEPPER: {
    default: null,
    unset: 'generated once, kept in the database',
    meaning: 'API-key HMAC pepper (32+ characters); set it in production and never change it',
  },
  STRATA_JWT_ISSUER: { default: 'strata', meaning: 'JWT `iss` claim' },
  STRATA_JWT_AUDIENCE: { default: 'strata-api', meaning: 'JWT `aud` claim' },
  ACCESS_TOKEN_TTL_S: {
    default: '900',
    min: 1,
    max: 86_400,
    meaning: 'access token lifetime, in seconds',
  },
  REFRESH_TOKEN_TTL_S: {
    default: String(30 * 86_400),
    min: 60,
    max: 365 * 86_400,
    meaning: 'refresh token lifetime, in seconds (30 days)',
  },
  RATE_LIMIT_PER_MINUTE: {
    default: '600',
    min: 1,
    max: 10_000_000,
    meaning: "the free plan's requests per minute per organization; pro ×10, enterprise ×100",
  },
  LOGIN_ATTEMPTS_PER_WINDOW: {
    default: '10',
    min: 1,
    max: 10_000,
    meaning: 'login attempts per email per window (×10 per client address)',
  },
  LOGIN_WINDOW_S: { default: '300', min: 1, max: 86_400, meaning: 'login throttle window, in seconds' },
  SIGNUP_ATTEMPTS_PER_WINDOW: {
    default: '10',
    min: 1,
    max: 1_000_000,
    meaning: 'signups per client address per window (each runs argon2); over it, 429 with `Retry-After`',
  },
  SIGNUP_WINDOW_S: { default: '3600', min: 1, max: 86_400, meaning: 'signup throttle window, in seconds' },
  REFUSED_CREDENTIALS_PER_WINDOW: {
    default: '100',
    min: 1,
    max: 1_000_000,
    meaning:
      'refused credentials (`401`) per client address per `LOGIN_WINDOW_S`; beyond it, every request of that address that needs a credential is `429` with `Retry-After` until the window ends, before any database read',
  },
  TRUST_PROXY: {
    default: null,
    unset: "off (the client address is the connection's)",
    meaning:
      "behind a load balancer: `true`, a hop count, or the proxies' addresses/CIDRs, so the client address (throttles, audit log) comes from `X-Forwarded-For`",
  },
  MAX_PRICE_AGE_S: {
    default: '3600',
    min: 1,
    meaning:
      'an oracle price older than this at the served ledger makes USD values `null` (`price_stale`), in seconds',
  },
  STRATA_ANSWER_CACHE_MB: {
    default: '64',
    min: 0,
    max: 65_536,
    meaning:
      'memory for rendered snapshot answers kept per process (they never change once their ledger is indexed), in MB; `0` turns the cache off',
  },
  STRATA_STREAM_HEARTBEAT_S: {
    default: '15',
    min: 1,
    max: 300,
    meaning:
      'seconds between the `: heartbeat` comments of an open `GET /v1/stream/positions`, which keep proxies from closing a quiet stream',
  },
  STRATA_STREAM_POLL_MS: {
    default: '250',
    min: 10,
    max: 60_000,
    meaning:
      'how often the one checkpoint watcher of a process reads the checkpoint while streams are open, in milliseconds: the most a new ledger waits before its events are sent',
  },
  STRATA_WEBHOOKS_ALLOW_LOOPBACK: {
    default: '0',
    meaning:
      '`1`: webhook URLs may use `http:` and point at loopback or private addresses (a receiver on the same host, in tests and development); `0`: `https:` to public addresses only, checked when a subscription is saved and again at every delivery (docs/webhooks.md)',
  },
  STRATA_WEBHOOK_DELIVERY: {
    default: 'on',
    meaning:
      "`on`: this `strata serve` process delivers the webhooks' outbox (with any others on the same store: they share the work); `off`: it serves the API only (a redelivery asked through it is still sent), for API replicas beside dedicated delivering ones",
  },
  STRATA_WEBHOOK_TIMEOUT_MS: {
    default: '10000',
    min: 100,
    max: 60_000,
    meaning:
      'time a webhook receiver has to answer one delivery (connection, request and response), in milliseconds; a delivery still unanswered then counts as failed and is retried',
  },
  STRATA_WEBHOOK_RETRY_SCHEDULE: {
    default: '5s,5m,30m,2h,5h,10h,10h',
    meaning:
      'waits between the attempts of a failing webhook delivery (`s`, `m`, `h` units, comma-separated): after the last one fails, the subscription is disabled and the audit log says so. The default spans about 28 hours',
  },
  BODY_LIMIT_BYTES: {
    default: String(64 * 1024),
    min: 1024,
    max: 16 * 1024 * 1024,
    meaning: 'largest request body; larger is `413 payload_too_large`',
  },
  STRATA_REQUEST_TIMEOUT_MS: {
    default: '30000',
    min: 1000,
    max: 600_000,
    meaning:
      'time a client has to send a whole request (headers and body) on a connection, in milliseconds; a request still arriving then is answered `408 request_timeout` and its connection closed',
  },
  STRATA_MAX_CONNECTIONS_PER_CLIENT: {
    default: '128',
    min: 0,
    max: 1_000_000,
    meaning:
      "connections one client address may hold open at once; more are answered `429 rate_limited` and closed. Behind a load balancer every connection is the balancer's: raise it or set `0` (off)",
  },
  STRATA_SHUTDOWN_TIMEOUT_MS: {
    default: '10000',
    min: 0,
    max: 600_000,
    meaning:
      'on SIGTERM or SIGINT, how long `strata serve` waits for the requests in flight to be answered before it exits anyway, in milliseconds',
  },
  LAST_USED_FLUSH_MS: {
    default: '1000',
    min: 10,
    max: 5000,
    meaning:
      "how often API keys' `last_used_at` times and organizations' daily request counts are written, in milliseconds",
  },
  STRATA_ACTIVITY_CACHE_MB: {
    default: '48',
    min: 0,
    max: 65_536,
    meaning:
      'memory for rendered activity items, pages and series kept per process (an item never changes once its ledger is indexed), in MB; `0` turns the caches off',
  },
  STRATA_MAX_INDEXER_LAG_S: {
    default: '300',
    min: 0,
    max: 31_536_000,
    meaning:
      '`/v1/health` says `degraded` (`indexer_behind`) when the last indexed ledger closed longer ago than this, in seconds; `0` turns the check off',
  },
  STRATA_READY_MAX_LAG_S: {
    default: '900',
    min: 0,
    max: 31_536_000,
    meaning:
      '`/v1/health/ready` answers 503 (`indexer_behind`) when the last indexed ledger closed longer ago than this, in seconds, taking the replica out of a load balancer; `0` turns the check off',
  },
  STRATA_CORS_ORIGINS: {
    default: null,
    unset: 'no CORS: OPTIONS answers 405 and no answer carries `access-control-*` headers',
    meaning:
      'comma-separated origins (`https://app.example.com`) whose pages may call the API from a browser, or `*` for any',
  },
  METRICS_PORT: {
    default: null,
    unset: 'no metrics listener',
    min: 0,
    max: 65535,
    meaning: 'serve Prometheus metrics at `http://HOST:METRICS_PORT/metrics` (a separate listener)',
  },
  LOG_LEVEL: {
    default: 'info',
    meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  },
  LOG_FORMAT: {
    default: null,
    unset: '`pretty` on a terminal, `json` otherwise',
    meaning:
      '`json` (one JSON object a line) or `pretty` (one readable line); credentials are redacted in both',
  },
})

export type EnvName = keyof typeof ENV_VARS

/** The default column: the value, or what unset means. */
function defaultText(v: EnvVar, code: (s: string) => string): string {
  return v.default !== null ? code(v.default) : `unset: ${v.unset ?? 'none'}`
}

/** README's configuration table (Markdown), generated. */
export function envMarkdownTable(): string {
  const rows = Object.entries(ENV_VARS).map(
    ([name, v]) => `| \`${name}\` | ${defaultText(v, (s) => `\`${s}\``)} | ${v.meaning} |`,
  )
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n')
}

/** The list as `--help` prints it: name, meaning and default, wrapped to `width`. */
export function envHelpText(width = 100): string {
  const plain = (s: string) => s.replaceAll('`', '')
  const indent = ' '.repeat(4)
  const lines: string[] = []
  for (const [name, v] of Object.entries(ENV_VARS)) {
    lines.push(`  ${name}${v.default !== null ? `=${v.default}` : ''}`)
    const text = `${plain(v.meaning)}${v.default === null ? `; unset: ${plain(v.unset ?? 'none')}` : ''}`
    let line = indent
    for (const word of text.split(' ')) {
      if (line.length + word.length + 1 > width && line.trim() !== '') {
        lines.push(line.trimEnd())
        line = indent
      }
      line += `${word} `
    }
    lines.push(line.trimEnd())
  }
  return lines.join('\n')
}

export const ENV_TABLE_START =
  '<!-- env-table:start (generated by npm run docs:env from src/config-env.ts) -->'
export const ENV_TABLE_END = '<!-- env-table:end -->'

/** `markdown` with the table between the markers regenerated; throws when the markers are missing. */
export function replaceEnvTable(markdown: string): string {
  const start = markdown.indexOf(ENV_TABLE_START)
  const end = markdown.indexOf(ENV_TABLE_END)
  if (start < 0 || end < start)
    throw new Error(`the markers ${ENV_TABLE_START} … ${ENV_TABLE_END} are missing`)
  return `${markdown.slice(0, start + ENV_TABLE_START.length)}\n${envMarkdownTable()}\n${markdown.slice(end)}`
}
