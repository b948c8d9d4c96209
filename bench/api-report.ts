// The API benchmark's report: the markdown section written into docs/performance.md.
import { round3 } from './api-env.ts'
import type { HttpCosts } from './api-http.ts'
import { type CaseResult, HOST_SCALE_SPINS_US, type Measured } from './api-rounds.ts'
import { renderProfileSummary } from './cpu-profile.ts'

export interface Report {
  machine: string
  pinned: boolean
  durationSPerRun: number
  pairs: number
  connections: number
  largeStore: { snapshots: number; byProtocol: Record<string, number>; accounts: number; ledgers: number }
  smallStore: { snapshots: number; accounts: number; ledgers: number }
  cases: CaseResult[]
  /** The vault endpoint with STRATA_ANSWER_CACHE_MB=0. */
  cold: CaseResult
  /** The ceiling with a fixed CPU spin per request, against the ceiling (see `measureHostScale`). */
  hostScale: CaseResult[]
  /** The HTTP conventions on the vault endpoint (see bench/api.ts, step 6). */
  http: { gzip: CaseResult; revalidation: CaseResult; costs: HttpCosts }
  skipped: string[]
  vaultAtHalfPeak: Measured & { rate: number }
  depth: { rate: number; small: Measured; large: Measured; serverP50Ratio: number; clientP50Ratio: number }
}

export function renderReport(r: Report): string {
  const n = (value: number) => value.toLocaleString('en')
  const use = (rate: number, us: number | null) =>
    us === null ? 'n/a' : (Math.round((rate * us) / 1e4) / 100).toFixed(2)
  const row = (name: string, m: Measured) =>
    `| ${name} | ${m.requestsPerSecond} | ${m.p50Ms} | ${m.p99Ms} | ${m.server ? `${m.server.p50Ms} / ${m.server.p99Ms}` : 'n/a'} | ${m.non2xx} |`
  const stores = Object.entries(r.largeStore.byProtocol)
    .map(([protocol, count]) => `${protocol} ${n(count)}`)
    .join(', ')
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:api\` on ${r.machine}; ${r.pinned ? 'servers pinned to core 0, autocannon to core 1' : 'no taskset: servers and load generator unpinned'}, ${r.connections} connections, ${r.durationSPerRun} s per round, ${r.pairs} alternating pairs per endpoint.`,
    `Large store: ${n(r.largeStore.snapshots)} snapshots (${stores}) of ${n(r.largeStore.accounts)} accounts over ${n(r.largeStore.ledgers)} ledgers; small store: ${n(r.smallStore.snapshots)} snapshots.${r.skipped.length ? ` Skipped (no snapshots): ${r.skipped.join(', ')}.` : ''}`,
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
    row(`depth: ${n(r.largeStore.snapshots)} snapshots at ${r.depth.rate}/s`, r.depth.large),
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
    'CPU profiles (V8 sampler at 1 ms, main thread, measured window only; the profiler adds a few percent):',
    '',
    ...r.cases.flatMap((c) => (c.profile ? [renderProfileSummary(`**${c.name}**`, c.profile), ''] : [])),
  ].join('\n')
}

/** The HTTP conventions' lines: compression off and on, revalidation, the ETag's and codecs' costs. */
function renderHttp(r: Report): string[] {
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
