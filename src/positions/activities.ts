import type { NetworkConfig } from '../chain/network.ts'
import type { PositionsDeps } from '../protocols/protocol-module.ts'
import type { ActionsReader, ChainPosition, StoredAction, StoredTransaction } from '../store/actions.ts'
import { formatUnits } from './amounts.ts'
import { createPriceLookup, toUsd, USD_DECIMALS } from './valuation.ts'

/**
 * Decoded actions as the API shows them: the amount in the asset's own decimals and its USD value
 * with the prices at the action's own ledger.
 */

export interface ActivityItem {
  protocol: string
  type: string
  contract: string
  account: string
  ledger: number
  close_time: number | null
  tx_hash: string
  operation: number
  event_index: number
  asset: string | null
  /** Smallest units, as the chain states them. */
  amount_raw: string | null
  amount: string | null
  amount_usd: string | null
  usd_unavailable_reason: string | null
  details: Record<string, unknown>
}

type Lookup = ReturnType<typeof createPriceLookup>

/** Values actions, one price lookup per ledger they sit at (prices at or before that ledger). */
export function createActionValuer(deps: PositionsDeps, network: NetworkConfig | null) {
  const lookups = new Map<number, Lookup>()
  const used: Lookup[] = []
  return {
    async value(row: StoredAction): Promise<ActivityItem> {
      const asset = row.asset === null || network === null ? undefined : network.assets[row.asset]
      let amount: string | null = null
      let usd: string | null = null
      let reason: string | null = null
      if (row.amount !== null) {
        if (asset === undefined || network === null) reason = 'asset_unknown'
        else {
          const raw = BigInt(row.amount)
          amount = formatUnits(raw, asset.decimals)
          let lookup = lookups.get(row.ledger)
          if (!lookup) {
            lookup = createPriceLookup(deps.reader, network, row.ledger, row.close_time, deps.maxPriceAgeS)
            lookups.set(row.ledger, lookup)
            used.push(lookup)
          }
          const priced = await lookup.priceOf(asset.id)
          if (priced.problem) reason = priced.problem
          else usd = formatUnits(toUsd(raw, asset.decimals, priced), USD_DECIMALS)
        }
      }
      return {
        protocol: row.protocol,
        type: row.type,
        contract: row.contract,
        account: row.account,
        ledger: Number(row.ledger),
        close_time: row.close_time === null ? null : Number(row.close_time),
        tx_hash: row.tx_hash,
        operation: row.operation,
        event_index: row.event_index,
        asset: row.asset,
        amount_raw: row.amount,
        amount,
        amount_usd: usd,
        usd_unavailable_reason: reason,
        details: JSON.parse(row.details) as Record<string, unknown>,
      }
    },
  }
}

/** An opaque cursor: the chain position of the last action served (ledger, transaction, event). */
export function encodeActivityCursor(p: ChainPosition): string {
  return Buffer.from(`a1:${p.ledger}:${p.tx_order}:${p.event_index}`).toString('base64url')
}

export function decodeActivityCursor(cursor: string): ChainPosition | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const match = /^a1:([0-9]{1,15}):([0-9]{1,9}):([0-9]{1,9})$/.exec(text)
  if (!match) return null
  const position = { ledger: Number(match[1]), tx_order: Number(match[2]), event_index: Number(match[3]) }
  return encodeActivityCursor(position) === cursor ? position : null
}

export interface TransactionAnswer {
  hash: string
  ledger: number
  close_time: number | null
  successful: boolean
  /** Stroops. */
  fee_charged: string
  fee_account: string | null
  source_account: string | null
  contract: string | null
  function: string | null
  actions: ActivityItem[]
}

/** A stored transaction and its actions (none when it failed: nothing it did took effect). */
export async function buildTransactionAnswer(
  deps: PositionsDeps,
  actions: ActionsReader,
  tx: StoredTransaction,
): Promise<TransactionAnswer> {
  const valuer = createActionValuer(deps, deps.network)
  const rows = await actions.actionsOfTransaction(tx.hash)
  return {
    hash: tx.hash,
    ledger: Number(tx.ledger),
    close_time: tx.close_time === null ? null : Number(tx.close_time),
    successful: Boolean(Number(tx.successful)),
    fee_charged: tx.fee_charged,
    fee_account: tx.fee_account,
    source_account: tx.source_account,
    contract: tx.contract,
    function: tx.function,
    actions: await Promise.all(rows.map((row) => valuer.value(row))),
  }
}

/** Bucket length of an activity series. */
export const INTERVAL_S = { hour: 3600, day: 86_400 } as const
export type Interval = keyof typeof INTERVAL_S

export interface SeriesBucket {
  /** Start of the bucket, epoch seconds (UTC hour or day). */
  start_time: number
  /** First and last ledger of the bucket holding one of the account's actions. */
  from_ledger: number
  to_ledger: number
  count: number
  /** Σ amount_usd of the bucket's priced actions (7 decimals); null when none was priced. */
  volume_usd: string | null
  /** Actions of the bucket without a USD value (no amount, unknown asset, missing or stale price). */
  unpriced_count: number
}

/** Groups valued actions (any order) into buckets by their ledger's close time, oldest first. */
export function buildSeries(items: readonly ActivityItem[], interval: Interval): SeriesBucket[] {
  const length = INTERVAL_S[interval]
  const buckets = new Map<number, { b: SeriesBucket; volume: bigint; priced: number }>()
  for (const item of items) {
    if (item.close_time === null) continue
    const start = Math.floor(item.close_time / length) * length
    let entry = buckets.get(start)
    if (!entry) {
      entry = {
        b: {
          start_time: start,
          from_ledger: item.ledger,
          to_ledger: item.ledger,
          count: 0,
          volume_usd: null,
          unpriced_count: 0,
        },
        volume: 0n,
        priced: 0,
      }
      buckets.set(start, entry)
    }
    const b = entry.b
    b.count += 1
    b.from_ledger = Math.min(b.from_ledger, item.ledger)
    b.to_ledger = Math.max(b.to_ledger, item.ledger)
    if (item.amount_usd === null) b.unpriced_count += 1
    else {
      entry.priced += 1
      entry.volume += BigInt(item.amount_usd.replace('.', ''))
    }
  }
  return [...buckets.values()]
    .sort((x, y) => x.b.start_time - y.b.start_time)
    .map(({ b, volume, priced }) => ({
      ...b,
      volume_usd: priced === 0 ? null : formatUnits(volume, USD_DECIMALS),
    }))
}
