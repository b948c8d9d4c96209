// The API benchmark's report: the markdown section written into docs/performance.md. The SQLite part
// (every measure of bench/api.ts) and, beside it, the PostgreSQL part (the data endpoints, the vault
// endpoint at half its peak and the two-replica run); either may be absent (BENCH_API_STORES).
import { round3 } from './api-env.ts'
import type { HttpCosts } from './api-http.ts'
import type { ReplicaResult } from './api-replicas.ts'
import { type CaseResult, HOST_SCALE_SPINS_US, type Measured } from './api-rounds.ts'
import { renderProfileSummary } from './cpu-profile.ts'

export interface Report {
  /** The host: its cores and Node. */
  machine: string
  pinned: boolean
  durationSPerRun: number
  pairs: number
  connections: number
  largeStore: { snapshots: number; byProtocol: Record<string, number>; accounts: number; ledgers: number }
  skipped: string[]
  sqlite: SqliteReport | null
  postgres: PostgresReport | null
}

/** What the run measured on the SQLite store. */
export interface SqliteReport {
  smallStore: { snapshots: number; accounts: number; ledgers: number }
  cases: CaseResult[]
  /** The vault endpoint with STRATA_ANSWER_CACHE_MB=0. */
  cold: CaseResult
  /** The ceiling with a fixed CPU spin per request, against the ceiling (see `measureHostScale`). */
  hostScale: CaseResult[]
  /** The HTTP conventions on the vault endpoint (see bench/api.ts, step 6). */
  http: { gzip: CaseResult; revalidation: CaseResult; costs: HttpCosts }
  vaultAtHalfPeak: Measured & { rate: number }
  depth: { rate: number; small: Measured; large: Measured; serverP50Ratio: number; clientP50Ratio: number }
}

/** What the run measured on the PostgreSQL copy of the large store, with Redis for the rate limiter. */
export interface PostgresReport {
  /** PostgreSQL's version, and Redis's (null: it did not say). */
  version: string
  redisVersion: string | null
  schema: string
  /** Rows of the copy; seconds the copy took in this run (null: the kept copy was current). */
  rows: number
  copiedS: number | null
  cases: CaseResult[]
  vaultAtHalfPeak: Measured & { rate: number }
  replicas: ReplicaResult
}

const n = (value: number) => value.toLocaleString('en')
/** Cores kept busy: a rate times CPU per request (µs). */
const use = (rate: number, us: number | null) =>
  us === null ? 'n/a' : (Math.round((rate * us) / 1e4) / 100).toFixed(2)
const row = (name: string, m: Measured) =>
  `| ${name} | ${m.requestsPerSecond} | ${m.p50Ms} | ${m.p99Ms} | ${m.server ? `${m.server.p50Ms} / ${m.server.p99Ms}` : 'n/a'} | ${m.non2xx} |`

export function renderReport(r: Report): string {
  const stores = Object.entries(r.largeStore.byProtocol)
    .map(([protocol, count]) => `${protocol} ${n(count)}`)
    .join(', ')
  const measured = [
    r.sqlite ? 'SQLite (node:sqlite)' : null,
    r.postgres
      ? `${r.postgres.version} on this host with Redis ${r.postgres.redisVersion ?? '(version unknown)'}`
      : null,
  ].filter((s) => s !== null)
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:api\` on ${r.machine}, ${measured.join(' and ')}; ${r.pinned ? 'servers pinned to core 0, autocannon to core 1' : 'no taskset: servers and load generator unpinned'}, ${r.connections} connections, ${r.durationSPerRun} s per round, ${r.pairs} alternating pairs per endpoint.`,
    `Large store: ${n(r.largeStore.snapshots)} snapshots (${stores}) of ${n(r.largeStore.accounts)} accounts over ${n(r.largeStore.ledgers)} ledgers${r.sqlite ? `; small store: ${n(r.sqlite.smallStore.snapshots)} snapshots` : ''}.${r.skipped.length ? ` Skipped (no snapshots): ${r.skipped.join(', ')}.` : ''}`,
    '',
    ...(r.sqlite ? renderSqlite(r.sqlite, r.largeStore.snapshots) : []),
    ...(r.postgres ? renderPostgres(r.postgres, r.sqlite) : []),
  ].join('\n')
}

/** The SQLite part: every measure of the run on the embedded store. */
function renderSqlite(r: SqliteReport, largeSnapshots: number): string[] {
  return [
    '**SQLite**, the embedded store:',
    '',
    '| endpoint | body bytes | endpoint req/s | ceiling req/s | ratio (median [range]) | server CPU µs/req: endpoint / ceiling | CPU ratio | load generator CPU µs/req: endpoint / ceiling | answer-cache hits |',
    '|---|---|---|---|---|---|---|---|---|',
    ...[...r.cases, r.cold].map(
      (c) =>
        `| ${c.name} | ${c.bodyBytes} | ${c.medianApi} | ${c.medianCeiling} | **${c.ratio}** [${c.ratioRange[0]}–${c.ratioRange[1]}] | ${c.apiCpuUs ?? 'n/a'} / ${c.ceilingCpuUs ?? 'n/a'} | ${c.cpuRatio ?? 'n/a'} | ${c.apiClientCpuUs} / ${c.ceilingClientCpuUs} | ${c.cacheHitRate === null ? 'n/a' : `${Math.round(c.cacheHitRate * 1000) / 10}%`} |`,
    ),
    '',
    `Core use in the median round (rate × CPU per request): ${[...r.cases, r.cold]
      .map(
        (c) =>
          `${c.name}: server ${use(c.medianApi, c.apiCpuUs)}, load generator ${use(c.medianApi, c.apiClientCpuUs)}; its ceiling: server ${use(c.medianCeiling, c.ceilingCpuUs)}, load generator ${use(c.medianCeiling, c.ceilingClientCpuUs)}`,
      )
      .join('; ')}. A side near 1.0 is the one that limits the round's rate.`,
    '',
    "The host's scale: the ceiling's route made to burn a fixed amount of CPU per request, against the same route without it, in alternating pairs (vault-sized body). On a host where a slower answer cost only its own work, the spun route would cost the ceiling's CPU plus the spin; the column beyond it is what this host charges for the slower exchange (the load generator waits and is woken by each answer), which an endpoint pays too. Read an endpoint's ratio against the ratio of a bare route doing as much work.",
    '',
    '| route | req/s | ceiling req/s | ratio (median [range]) | server CPU µs/req: route / ceiling | beyond the ceiling and the spin, µs/req | load generator CPU µs/req: route / ceiling |',
    '|---|---|---|---|---|---|---|',
    ...r.hostScale.map((c, i) => {
      const spin = HOST_SCALE_SPINS_US[i]!
      const beyond =
        c.apiCpuUs === null || c.ceilingCpuUs === null ? 'n/a' : round3(c.apiCpuUs - c.ceilingCpuUs - spin)
      return `| ${c.name} | ${c.medianApi} | ${c.medianCeiling} | **${c.ratio}** [${c.ratioRange[0]}–${c.ratioRange[1]}] | ${c.apiCpuUs ?? 'n/a'} / ${c.ceilingCpuUs ?? 'n/a'} | ${beyond} | ${c.apiClientCpuUs} / ${c.ceilingClientCpuUs} |`
    }),
    '',
    '| run | req/s | client p50 ms | client p99 ms | server p50 / p99 ms | non-2xx |',
    '|---|---|---|---|---|---|',
    row(`vault positions at half its peak rate (${r.vaultAtHalfPeak.rate}/s)`, r.vaultAtHalfPeak),
    row(`depth: ${n(r.smallStore.snapshots)} snapshots at ${r.depth.rate}/s`, r.depth.small),
    row(`depth: ${n(largeSnapshots)} snapshots at ${r.depth.rate}/s`, r.depth.large),
    '',
    `- Vault positions: **${r.cases[0]?.ratio}** of the ceiling (goal 0.4, aim 0.5); other endpoints: ${r.cases
      .slice(1)
      .map((c) => `${c.name} **${c.ratio}**`)
      .join(', ')} (goal 0.3).`,
    `- Answer-cache hits are per lookup (a snapshot surface, or a whole all-protocols answer; one per request when it hits) over the measured rounds; the warm-up round before them renders what the paths ask. With the cache off, the vault endpoint is at **${r.cold.ratio}** of its ceiling (CPU ratio ${r.cold.cpuRatio ?? 'n/a'}, ${r.cold.apiCpuUs ?? 'n/a'} µs/request against ${r.cases[0]?.apiCpuUs ?? 'n/a'} with it).`,
    `- Server p99 at half the peak rate: **${r.vaultAtHalfPeak.server?.p99Ms} ms** (goal under 1 ms); client p99 ${r.vaultAtHalfPeak.p99Ms} ms.`,
    `- Depth: server p50 ratio large/small **${r.depth.serverP50Ratio}**, client p50 ratio ${r.depth.clientP50Ratio} (aim: under 1.2).`,
    '',
    ...renderHttp(r),
    '',
    ...(r.cases.some((c) => c.profile)
      ? [
          'CPU profiles (V8 sampler at 1 ms, main thread, measured window only; the profiler adds a few percent):',
          '',
          ...r.cases.flatMap((c) =>
            c.profile ? [renderProfileSummary(`**${c.name}**`, c.profile), ''] : [],
          ),
        ]
      : []),
  ]
}

/** The HTTP conventions' lines: compression off and on, revalidation, the ETag's and codecs' costs. */
function renderHttp(r: SqliteReport): string[] {
  const plain = r.cases[0]
  const { gzip, revalidation, costs } = r.http
  if (!plain) return []
  const line = (label: string, c: CaseResult) =>
    `| ${label} | ${c.bodyBytes} | ${c.medianApi} | ${c.medianCeiling} | **${c.ratio}** [${c.ratioRange[0]}–${c.ratioRange[1]}] | ${c.apiCpuUs ?? 'n/a'} / ${c.ceilingCpuUs ?? 'n/a'} | ${c.cpuRatio ?? 'n/a'} |`
  const etagShare = plain.apiCpuUs === null ? 'n/a' : `${round3((costs.etagUs / plain.apiCpuUs) * 100)}%`
  return [
    'HTTP conventions on the vault endpoint (compression negotiated off and on, each against a ceiling with the same setting: a bare Fastify route compressing through the same `compressAnswer` in an `onSend` hook; revalidation against plain requests on the same server):',
    '',
    '| vault positions | body bytes (uncompressed) | req/s | ceiling (or plain) req/s | ratio (median [range]) | server CPU µs/req | CPU ratio |',
    '|---|---|---|---|---|---|---|',
    line('no accept-encoding', plain),
    line('accept-encoding: gzip', gzip),
    line('If-None-Match: its ETag (304) / plain (200)', revalidation),
    '',
    `Hashing a whole ${costs.bodyBytes}-byte vault answer for its ETag (what an answer not written from kept parts costs; a kept one hashes only its kept parts' tags and its stable members) costs **${costs.etagUs} µs** of CPU (${etagShare} of the endpoint's server CPU per request). Codecs on the same body, in this process:`,
    '',
    '| codec | offered | bytes | µs per answer |',
    '|---|---|---|---|',
    ...costs.codecs.map(
      (c) => `| ${c.codec} | ${c.offered ? 'yes' : 'no'} | ${c.bytes} | ${c.usPerAnswer} |`,
    ),
  ]
}

/** Both replicas' cores busy in the two-replica rounds (their median rates times their CPU per request). */
function replicaServersUse(r: ReplicaResult): string {
  const [a, b] = r.twoCpuUs
  if (a == null || b == null) return 'n/a'
  return (Math.round((r.twoPerReplica[0]! * a + r.twoPerReplica[1]! * b) / 1e4) / 100).toFixed(2)
}

/** A CPU ratio counting the database's and Redis's CPU with the server's: ceiling over endpoint. */
function wholeCpuRatio(c: CaseResult): number | null {
  if (c.apiCpuUs === null || c.ceilingCpuUs === null || c.apiDatabaseCpuUs === null) return null
  return round3(c.ceilingCpuUs / (c.apiCpuUs + c.apiDatabaseCpuUs + (c.apiRedisCpuUs ?? 0)))
}

/**
 * The PostgreSQL part: the data endpoints against their ceilings, side by side with SQLite's when
 * the run measured both, the vault endpoint at half its peak, and two replicas against one.
 */
function renderPostgres(p: PostgresReport, sqlite: SqliteReport | null): string[] {
  const vault = p.cases[0]
  const r = p.replicas
  const side = (database: number | null, redis: number | null) => `${database ?? 'n/a'} / ${redis ?? 'n/a'}`
  const sqliteCase = (name: string) => sqlite?.cases.find((c) => c.name === name)
  return [
    `**PostgreSQL**: schema \`${p.schema}\`, the large store's ${n(p.rows)} rows copied into it (not re-indexed; ${p.copiedS === null ? 'the kept copy' : `copied in ${p.copiedS} s in this run`}), migrated by the project's migrations; \`strata serve\` on it with \`REDIS_URL\` set, so every request's rate limit is counted in Redis. PostgreSQL and Redis run on this host unpinned, beside the server and the load generator. The server's own CPU per request leaves out what its requests cost PostgreSQL and Redis: the next column adds them (its database backends' CPU, read from /proc by the application name its connections carry, and Redis's, from \`INFO cpu\`, all its clients), and the last CPU ratio counts them with the server's.`,
    '',
    '| endpoint | body bytes | endpoint req/s | ceiling req/s | ratio (median [range]) | server CPU µs/req: endpoint / ceiling | CPU ratio | database / Redis CPU µs/req | CPU ratio, database and Redis counted | load generator CPU µs/req: endpoint / ceiling | answer-cache hits |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...p.cases.map(
      (c) =>
        `| ${c.name} | ${c.bodyBytes} | ${c.medianApi} | ${c.medianCeiling} | **${c.ratio}** [${c.ratioRange[0]}–${c.ratioRange[1]}] | ${c.apiCpuUs ?? 'n/a'} / ${c.ceilingCpuUs ?? 'n/a'} | ${c.cpuRatio ?? 'n/a'} | ${side(c.apiDatabaseCpuUs, c.apiRedisCpuUs)} | ${wholeCpuRatio(c) ?? 'n/a'} | ${c.apiClientCpuUs} / ${c.ceilingClientCpuUs} | ${c.cacheHitRate === null ? 'n/a' : `${Math.round(c.cacheHitRate * 1000) / 10}%`} |`,
    ),
    '',
    `Core use in the median round (rate × CPU per request): ${p.cases
      .map(
        (c) =>
          `${c.name}: server ${use(c.medianApi, c.apiCpuUs)}, database ${use(c.medianApi, c.apiDatabaseCpuUs)}, Redis ${use(c.medianApi, c.apiRedisCpuUs)}, load generator ${use(c.medianApi, c.apiClientCpuUs)}; its ceiling: server ${use(c.medianCeiling, c.ceilingCpuUs)}, load generator ${use(c.medianCeiling, c.ceilingClientCpuUs)}`,
      )
      .join('; ')}.`,
    '',
    ...(sqlite
      ? [
          'Side by side, each endpoint against its own ceiling rounds in this run:',
          '',
          '| endpoint | SQLite req/s | SQLite ratio | PostgreSQL req/s | PostgreSQL ratio | PostgreSQL / SQLite req/s |',
          '|---|---|---|---|---|---|',
          ...p.cases.map((c) => {
            const s = sqliteCase(c.name)
            return s
              ? `| ${c.name} | ${s.medianApi} | ${s.ratio} | ${c.medianApi} | **${c.ratio}** | ${round3(c.medianApi / s.medianApi)} |`
              : `| ${c.name} | n/a | n/a | ${c.medianApi} | **${c.ratio}** | n/a |`
          }),
          '',
        ]
      : []),
    '| run | req/s | client p50 ms | client p99 ms | server p50 / p99 ms | non-2xx |',
    '|---|---|---|---|---|---|',
    row(`vault positions at half its PostgreSQL peak rate (${p.vaultAtHalfPeak.rate}/s)`, p.vaultAtHalfPeak),
    '',
    `Two replicas: two \`strata serve\` on this schema and one Redis (\`STRATA_REPLICAS=2\`), ${r.pinned ? 'pinned to core 0 and core 1' : 'unpinned (no taskset)'}, against the first alone, in ${r.pairs.length} alternating pairs of rounds on the vault endpoint. ${r.generators} load generators of ${r.connections} connections each, free to run on either core: one per replica, or both on the one replica. The replicas' request logs go nowhere (each still writes them), so no process reads them on a replica's core.`,
    '',
    '| run | replica 1 (core 0) req/s | replica 2 (core 1) req/s | total req/s | total / one replica (median [range]) | server CPU µs/req | database / Redis CPU µs/req | load generators CPU µs/req | cores busy: servers / database / Redis / load generators |',
    '|---|---|---|---|---|---|---|---|---|',
    `| one replica | ${r.oneTotal} | — | ${r.oneTotal} | 1 | ${r.oneCpuUs ?? 'n/a'} | ${side(r.oneSideUs.database, r.oneSideUs.redis)} | ${r.oneClientCpuUs} | ${use(r.oneTotal, r.oneCpuUs)} / ${use(r.oneTotal, r.oneSideUs.database)} / ${use(r.oneTotal, r.oneSideUs.redis)} / ${use(r.oneTotal, r.oneClientCpuUs)} |`,
    `| two replicas | ${r.twoPerReplica[0]} | ${r.twoPerReplica[1]} | ${r.twoTotal} | **${r.scaling}** [${r.scalingRange[0]}–${r.scalingRange[1]}] | ${r.twoCpuUs.map((c) => c ?? 'n/a').join(' / ')} | ${side(r.twoSideUs.database, r.twoSideUs.redis)} | ${r.twoClientCpuUs} | ${replicaServersUse(r)} / ${use(r.twoTotal, r.twoSideUs.database)} / ${use(r.twoTotal, r.twoSideUs.redis)} / ${use(r.twoTotal, r.twoClientCpuUs)} |`,
    '',
    'Cores busy: each median rate times its CPU per request. On a two-core host a sum near 2 says the host, not the replicas, bounds the total; other work on the host is not in the sum and takes its share too.',
    '',
    ...(vault
      ? [
          `- Vault positions on PostgreSQL: **${vault.ratio}** of the ceiling (target 0.35)${sqliteCase(vault.name) ? `; on SQLite in the same run **${sqliteCase(vault.name)!.ratio}**` : ''}.`,
          `- Other endpoints on PostgreSQL: ${p.cases
            .slice(1)
            .map((c) => `${c.name} **${c.ratio}**`)
            .join(', ')} (target 0.3).`,
        ]
      : []),
    `- p99 at half the PostgreSQL peak rate (${p.vaultAtHalfPeak.rate}/s): server **${p.vaultAtHalfPeak.server?.p99Ms ?? 'n/a'} ms**, client **${p.vaultAtHalfPeak.p99Ms} ms** (target under 2 ms).`,
    `- Two replicas: ${r.twoPerReplica.join(' + ')} = **${r.twoTotal} req/s**, ${r.scaling} × one replica's ${r.oneTotal} req/s.`,
    '',
  ]
}
