import { createBoundedCache } from '../bounded-cache.ts'
import type { NetworkConfig } from '../chain/network.ts'
import { formatUnits } from '../protocols/kit/amounts.ts'
import type { PositionsDeps } from '../protocols/kit/protocol-module.ts'
import { USD_DECIMALS } from '../protocols/kit/valuation.ts'
import type {
  ActivitiesReader,
  ActivityFilter,
  ActivityKey,
  ChainPosition,
  StoredActivity,
  StoredTransaction,
} from '../store/activities.ts'
import { type ActivityItem, valueActions } from './activity-items.ts'
import { keptTag } from './answer-tag.ts'

export type { ActivityItem, ActivityLeg } from './activity-items.ts'

/** The cache key of an action's rendered item: its identity (see ActivityKey). */
const itemKey = (k: ActivityKey) => `${k.ledger}:${k.tx_order}:${k.event_index}:${k.protocol}`

const COMMA = Buffer.from(',')

/** A page's items, rendered at a checkpoint: valid at a later one while no newer action joins it. */
interface RenderedPage {
  /** The checkpoint it was read at (its scan stopped there). */
  head: number
  /** The items' JSON, comma-separated. */
  items: string
  next: string | null
}

/** A page of an account's activities: its items' JSON, comma-separated, and the next cursor. */
export interface ActivityPage {
  items: string
  next: string | null
  /** The items' tag (the hash of `items`), kept with the rendered page. */
  tag: string
}

/**
 * Activity pages, their rendered items (their JSON, as the response serializer writes them) and
 * activity series, kept in bounded caches:
 * - an item depends only on its stored action, its ledger's close time, the prices at or before
 *   its ledger (all written in the batch that indexed that ledger, never changed after), the
 *   network description (assets, pairs, vaults, denominations) and the price age limit;
 * - a page read at checkpoint H (its scan stops at H) holds the same items at a later checkpoint
 *   H' unless the account has an action in a ledger of (H, H'] that the page's range and cursor
 *   admit: ledgers are indexed in order, each with all its actions, so nothing joins at or below
 *   H. One seek answers that (any protocol or type: at worst a page is read again). A series is
 *   kept by the same rule.
 * The caches are emptied whenever the description or the price age limit differs from the one
 * their items were rendered with.
 */
/** The activity pages, items and series kept in memory (see `createActivityPages`). */
export type ActivityPages = ReturnType<typeof createActivityPages>

/**
 * What a page answers: its items and their tag, hashed once per rendered page and kept beside it,
 * so the answer written around them is tagged without hashing its items again (answer-tag.ts).
 */
function offered(page: RenderedPage): ActivityPage {
  return { items: page.items, next: page.next, tag: keptTag(page, () => page.items) }
}

export function createActivityPages(
  actions: ActivitiesReader,
  budgets: { items: number; pages: number; series: number },
) {
  const items = createBoundedCache<string, Buffer>(budgets.items)
  const pages = createBoundedCache<string, RenderedPage>(budgets.pages)
  const series = createBoundedCache<string, { head: number; buckets: SeriesBucket[] }>(budgets.series)
  let renderedWith: NetworkConfig | null | undefined
  let version: string | null = null
  /** Empties the caches when what items depend on (besides the store) changed. */
  const check = (deps: PositionsDeps) => {
    if (deps.network === renderedWith) return
    // The provider hands out a new object when it re-reads the description: compare contents.
    const next = `${deps.maxPriceAgeS}|${deps.network === null ? '' : JSON.stringify(deps.network)}`
    if (next !== version) {
      items.clear()
      pages.clear()
      series.clear()
    }
    version = next
    renderedWith = deps.network
  }

  /**
   * The JSON of each stored action of `keys` (UTF-8), in their order (a key not stored is left
   * out). Bytes, not strings: a page is assembled by copying them, and the serializer's strings
   * are ropes that every join would walk again.
   */
  const render = async (
    deps: PositionsDeps,
    keys: readonly ActivityKey[],
    serialize: (item: ActivityItem) => string,
  ): Promise<Buffer[]> => {
    const out: Array<Buffer | undefined> = keys.map((k) => items.get(itemKey(k)))
    const missing = keys.filter((_k, i) => out[i] === undefined)
    if (missing.length === 0) return out as Buffer[]
    const rows = await actions.activitiesByKeys(missing)
    const valued = await valueActions(deps, deps.network, rows, actions)
    const rendered = new Map<string, Buffer>()
    for (const [i, row] of rows.entries()) {
      const json = Buffer.from(serialize(valued[i]!))
      const key = itemKey({ ...row, ledger: Number(row.ledger) })
      rendered.set(key, json)
      items.set(key, json, json.length)
    }
    const result: Buffer[] = []
    for (const [i, k] of keys.entries()) {
      const json = out[i] ?? rendered.get(itemKey(k))
      if (json !== undefined) result.push(json)
    }
    return result
  }

  /**
   * Whether an answer read at checkpoint `readAt` still holds at `head`: the account has no action
   * in a ledger above `readAt` up to `top` (the highest ledger the answer admits) and `head`.
   */
  const stillValid = async (account: string, readAt: number, head: number, top: number) =>
    readAt <= head &&
    (Math.min(top, head) <= readAt ||
      !(await actions.hasActivitiesBetween(account, readAt, Math.min(top, head))))

  return {
    /**
     * The series of the account's actions in `[from, min(to, head)]` (of one protocol when given),
     * valued as the pages value them; kept like a page.
     */
    async seriesOf(
      deps: PositionsDeps,
      filter: { account: string; protocol: string | null; from: number; to: number },
      interval: Interval,
      head: number | null,
      pageSize: number,
    ): Promise<SeriesBucket[]> {
      check(deps)
      const f = filter
      const key = `${f.account}|${f.protocol ?? ''}|${f.from}|${f.to}|${interval}`
      const cached = head === null ? undefined : series.get(key)
      if (cached !== undefined && head !== null && (await stillValid(f.account, cached.head, head, f.to))) {
        cached.head = head
        return cached.buckets
      }
      const rows: StoredActivity[] = []
      // Pages of the same keyset scan the activities endpoint uses, until the range is exhausted.
      let before: ChainPosition | null = null
      for (;;) {
        const page = await actions.activitiesOfAccount({
          ...f,
          to: head === null ? f.to : Math.min(f.to, head),
          type: null,
          before,
          limit: pageSize,
        })
        rows.push(...page)
        const last = page.at(-1)
        if (page.length < pageSize || !last) break
        before = { ledger: Number(last.ledger), tx_order: last.tx_order, event_index: last.event_index }
      }
      const buckets = buildSeries(await valueActions(deps, deps.network, rows, actions), interval)
      if (head !== null) series.set(key, { head, buckets }, 100 * buckets.length + key.length)
      return buckets
    },
    /**
     * The page of `filter` (its `limit` is the page size) as of checkpoint `head`: the account's
     * actions up to `min(filter.to, head)`, newest first.
     */
    async page(
      deps: PositionsDeps,
      filter: ActivityFilter,
      head: number | null,
      serialize: (item: ActivityItem) => string,
    ): Promise<ActivityPage> {
      check(deps)
      const f = filter
      const before = f.before
      const key = `${f.account}|${f.protocol ?? ''}|${f.type ?? ''}|${f.from}|${f.to}|${f.limit}|${before ? encodeActivityCursor(before) : ''}`
      const cached = head === null ? undefined : pages.get(key)
      // Newer actions the page would admit sit at or below its range's end and its cursor.
      const top = Math.min(f.to, before ? before.ledger : f.to)
      if (cached !== undefined && head !== null && (await stillValid(f.account, cached.head, head, top))) {
        cached.head = head
        return offered(cached)
      }
      const keys = await actions.actionKeysOfAccount({
        ...f,
        to: head === null ? f.to : Math.min(f.to, head),
        limit: f.limit + 1,
      })
      const shown = keys.slice(0, f.limit)
      const parts: Buffer[] = []
      for (const [i, json] of (await render(deps, shown, serialize)).entries()) {
        if (i > 0) parts.push(COMMA)
        parts.push(json)
      }
      const last = shown.at(-1)
      const page: RenderedPage = {
        head: head ?? 0,
        // One flat string: a page is sent by concatenating it with its envelope.
        items: Buffer.concat(parts).toString(),
        next:
          keys.length > f.limit && last
            ? encodeActivityCursor({
                ledger: Number(last.ledger),
                tx_order: last.tx_order,
                event_index: last.event_index,
              })
            : null,
      }
      if (head !== null) pages.set(key, page, page.items.length + key.length)
      return offered(page)
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
  closed_at: string | null
  successful: boolean
  /** Stroops. */
  fee_charged: string
  fee_account: string | null
  source_account: string | null
  contract_address: string | null
  function: string | null
  actions: ActivityItem[]
}

/** A stored transaction and its actions (none when it failed: nothing it did took effect). */
export async function buildTransactionAnswer(
  deps: PositionsDeps,
  actions: ActivitiesReader,
  tx: StoredTransaction,
): Promise<TransactionAnswer> {
  const rows = await actions.activitiesOfTransaction(tx.hash)
  return {
    hash: tx.hash,
    ledger: Number(tx.ledger),
    closed_at: tx.close_time === null ? null : new Date(Number(tx.close_time) * 1000).toISOString(),
    successful: Boolean(Number(tx.successful)),
    fee_charged: tx.fee_charged,
    fee_account: tx.fee_account,
    source_account: tx.source_account,
    contract_address: tx.contract,
    function: tx.function,
    actions: await valueActions(deps, deps.network, rows, actions),
  }
}

/** Bucket length of an activity series. */
export const INTERVAL_S = { hour: 3600, day: 86_400 } as const
export type Interval = keyof typeof INTERVAL_S

export interface SeriesBucket {
  /** Start of the bucket (UTC hour or day), RFC 3339. */
  starts_at: string
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
  const buckets = new Map<number, { start: number; b: SeriesBucket; volume: bigint; priced: number }>()
  for (const item of items) {
    if (item.closed_at === null) continue
    const closeTime = Date.parse(item.closed_at) / 1000
    const start = Math.floor(closeTime / length) * length
    let entry = buckets.get(start)
    if (!entry) {
      entry = {
        start,
        b: {
          starts_at: new Date(start * 1000).toISOString(),
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
    .sort((x, y) => x.start - y.start)
    .map(({ b, volume, priced }) => ({
      ...b,
      volume_usd: priced === 0 ? null : formatUnits(volume, USD_DECIMALS),
    }))
}
