/**
 * What the explorer pages ask the API, through the typed client with the picked API key: an
 * account's positions (latest, or valued at a ledger), its activities page by page, a transaction,
 * the ledger at a time, the demo's accounts (only where the server's own document lists that
 * operation), and the samples of the account's value over the indexed range.
 */
import type { components, StrataClient } from '@strata/client'
import { data, plain, unwrap } from './api.ts'
import { mapLimited, spreadLedgers } from './sampling.ts'
import { apiKey } from './session.ts'

export type AllPositions = components['schemas']['AllPositionsAnswer']
export type Activity = components['schemas']['Activity']
export type ActivityLeg = components['schemas']['ActivityLeg']
export type ActivitiesAnswer = components['schemas']['ListActivitiesResponse']
export type TransactionAnswer = components['schemas']['GetTransactionResponse']
export type Enrichment = components['schemas']['Enrichment']
export type ProtocolName = keyof AllPositions['data']['protocols']

export interface DemoAccount {
  example_of: string
  address: string
  protocols: string[]
}

export type LedgerAtTime = components['schemas']['LedgerAtTimeAnswer']

/**
 * What the typed paths do not list (the demo's own endpoint, which only a demo server has, and
 * the server's OpenAPI document), called through the same clients; the key is set here since the
 * client only adds it to the operations it knows.
 */
type Untyped = {
  GET(
    path: string,
    init: { params?: { query?: Record<string, string | number> }; headers?: Record<string, string> },
  ): Promise<{ data?: unknown; error?: unknown; response: Response }>
}

function untypedGet<T>(path: string, query?: Record<string, string | number>): Promise<T> {
  const client = data as StrataClient as unknown as Untyped
  return unwrap(
    client.GET(path, {
      ...(query ? { params: { query } } : {}),
      headers: { 'x-svc-token': apiKey.value ?? '' },
    }),
  ) as Promise<T>
}

/** Every protocol's positions: the snapshot surface (latest) or valued at `ledger`. */
export function loadPositions(address: string, ledger: number | null): Promise<AllPositions> {
  if (ledger === null) {
    return unwrap(data.GET('/v1/users/{address}/positions', { params: { path: { address } } }))
  }
  return unwrap(
    data.GET('/v1/users/{address}/positions/at/{ledger}', { params: { path: { address, ledger } } }),
  )
}

export const ACTIVITIES_PAGE = 20

/** One page of the account's activities, newest first, up to `toLedger` when given. */
export function loadActivities(
  address: string,
  cursor: string | null,
  toLedger: number | null,
): Promise<ActivitiesAnswer> {
  return unwrap(
    data.GET('/v1/users/{address}/activities', {
      params: {
        path: { address },
        query: {
          limit: ACTIVITIES_PAGE,
          ...(cursor ? { cursor } : {}),
          ...(toLedger !== null ? { to_ledger: toLedger } : {}),
        },
      },
    }),
  ) as Promise<ActivitiesAnswer>
}

export function loadTransaction(hash: string): Promise<TransactionAnswer> {
  return unwrap(data.GET('/v1/transactions/{hash}', { params: { path: { hash } } }))
}

/** The latest indexed ledger closed at or before `time` (RFC 3339). */
export function ledgerAtTime(time: string): Promise<LedgerAtTime> {
  return unwrap(data.GET('/v1/ledgers/at-time', { params: { query: { time } } }))
}

let demoListed: Promise<boolean> | null = null

/**
 * Whether this server answers `GET /v1/demo/accounts`: it exists only on a demo server, so its own
 * OpenAPI document (public) is read first and the operation called only when listed.
 */
function demoAccountsListed(): Promise<boolean> {
  const client = plain as StrataClient as unknown as Untyped
  demoListed ??= client
    .GET('/v1/openapi.json', {})
    .then(
      ({ data: document }) =>
        '/v1/demo/accounts' in ((document as { paths?: object } | undefined)?.paths ?? {}),
    )
    .catch(() => false)
  return demoListed
}

/** The demo's example accounts, or null on a server that is not a demo. */
export async function loadDemoAccounts(): Promise<DemoAccount[] | null> {
  if (!(await demoAccountsListed())) return null
  const answer = await untypedGet<{ data: DemoAccount[] }>('/v1/demo/accounts')
  return answer.data
}

/** How many ledgers the value chart samples across the indexed range. */
export const SAMPLES = 32

/**
 * The ledgers the value chart samples: `count` spread evenly across the indexed range, and the
 * ledger the page shows (`marked`, when it lies in the range), so the chart's value there is the
 * page's own.
 */
export function sampleLedgers(
  from: number,
  to: number,
  marked: number | null = null,
  count = SAMPLES,
): number[] {
  const spread = spreadLedgers(from, to, count)
  if (marked === null || marked < from || marked > to || spread.includes(marked)) return spread
  return [...spread, marked].sort((a, b) => a - b)
}

export interface ValueSamples {
  ledgers: number[]
  /** Per protocol holding something at a sample: its net USD at each sampled ledger (null: unpriced). */
  series: Array<{ protocol: string; values: Array<number | null> }>
}

/**
 * The account's net USD per protocol at each sampled ledger, every protocol valued at that ledger
 * (`/positions/at/{ledger}`). A protocol holding nothing at a sample is worth 0 there; a section
 * holding something the API could not price is a gap (null), never 0.
 */
export async function loadValueSamples(address: string, ledgers: number[]): Promise<ValueSamples> {
  const answers = await mapLimited(ledgers, 4, (ledger) => loadPositions(address, ledger))
  const names = Object.keys(answers[0]?.data.protocols ?? {}) as ProtocolName[]
  const series: ValueSamples['series'] = []
  for (const name of names) {
    const values = answers.map((answer) => {
      const section = answer.data.protocols[name]
      if (sectionRows(section) === 0) return 0
      return section.totals.net_usd === null ? null : Number(section.totals.net_usd)
    })
    if (answers.some((answer) => sectionRows(answer.data.protocols[name]) > 0)) {
      series.push({ protocol: name, values })
    }
  }
  return { ledgers, series }
}

/** How many rows a protocol's section holds (vaults or positions). */
export function sectionRows(section: AllPositions['data']['protocols'][ProtocolName]): number {
  const body = section.data as { vaults?: unknown[]; positions?: unknown[] }
  return (body.vaults ?? body.positions ?? []).length
}
