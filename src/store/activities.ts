import type { DatabaseSync } from 'node:sqlite'
import type pg from 'pg'
import type { Awaitable } from '../awaitable.ts'
import type { DecodedLedger } from '../chain/decode-ledger.ts'
import type { Database } from './db.ts'
import type { PriceRow } from './positions-read.ts'
import { createQueryMany, createQueryOne } from './prepared.ts'
import type { AccountActivitiesTable, ActivitiesTable, TransactionsTable } from './schema.ts'

/**
 * Decoded actions and the transactions that carry them: written with the snapshots of the same
 * batch (one transaction), read by the transaction and activities endpoints.
 */

/**
 * A decoded protocol action (listed by the activities endpoint) as the store receives it: what
 * happened, to whom, and where it sits in the chain. The store owns this shape; protocol modules
 * emit it, extended with their own fields (stored as `details`, `asset`/`amount` when named).
 */
export interface DecodedActivity {
  protocol: string
  /** The action's name: `supply`, `borrow`, `fill_auction`, `claim`, ... */
  type: string
  /** The contract that emitted the event. */
  contract: string
  /** The account whose position it concerns (a pool's `from`, an auction's user). */
  account: string
  /**
   * Other accounts the action concerns (an auction's filler, a transfer's receiver, a moved debt's
   * new owner): it is listed in their activities too, still as `account`'s action.
   */
  counterparties?: readonly string[]
  ledger: number
  /** Transaction hash, lowercase hex. */
  tx_hash: string
  /** Operation index in the transaction (a Soroban transaction has exactly one). */
  operation: number
  /** Order of the event among the watched contracts' events of the transaction. */
  event_index: number
}

/** The rows one batch adds to the transactions and activities tables. */
export interface ActivityRows {
  transactions: TransactionsTable[]
  activities: ActivitiesTable[]
  accountActivities: AccountActivitiesTable[]
}

export const emptyActivityRows = (): ActivityRows => ({
  transactions: [],
  activities: [],
  accountActivities: [],
})

/** Fields every action has; the rest are the module's own and go to `details`. */
const BASE_FIELDS = new Set([
  'protocol',
  'type',
  'contract',
  'account',
  'ledger',
  'tx_hash',
  'operation',
  'event_index',
  'asset',
  'amount',
  'counterparties',
])

/** JSON with integers beyond a double's range kept exact: every BigInt becomes a decimal string. */
function toStoredJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v))
}

/** A decoded action as it is stored: `asset`/`amount` when the action names them, the rest as JSON. */
export function buildActivityRow(
  action: { [key: string]: unknown } & Omit<ActivitiesTable, 'tx_order' | 'asset' | 'amount' | 'details'>,
  txOrder: number,
): ActivitiesTable {
  const details: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(action)) if (!BASE_FIELDS.has(key)) details[key] = value
  return {
    ledger: action.ledger,
    tx_order: txOrder,
    event_index: action.event_index,
    protocol: action.protocol,
    tx_hash: action.tx_hash,
    operation: action.operation,
    type: action.type,
    contract: action.contract,
    account: action.account,
    asset: typeof action.asset === 'string' ? action.asset : null,
    amount: typeof action.amount === 'bigint' ? action.amount.toString() : null,
    details: toStoredJson(details),
  }
}

const INSERT = {
  transactions:
    'INSERT INTO transactions (hash, ledger, tx_order, successful, fee_charged, fee_account, source_account, contract, function) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  activities: `INSERT INTO activities (ledger, tx_order, event_index, protocol, tx_hash, operation, type, contract,
              account, asset, amount, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  accountActivities:
    'INSERT INTO account_activities (account, ledger, tx_order, event_index, protocol, type) VALUES (?, ?, ?, ?, ?, ?)',
} as const

/** Inside the batch's SQLite transaction (synchronous, under the connection lock). */
export function writeActivitySqlite(raw: DatabaseSync, rows: ActivityRows): void {
  if (rows.transactions.length === 0) return
  const tx = raw.prepare(INSERT.transactions)
  for (const r of rows.transactions)
    tx.run(
      r.hash,
      r.ledger,
      r.tx_order,
      r.successful,
      r.fee_charged,
      r.fee_account,
      r.source_account,
      r.contract,
      r.function,
    )
  const action = raw.prepare(INSERT.activities)
  for (const r of rows.activities)
    action.run(
      r.ledger,
      r.tx_order,
      r.event_index,
      r.protocol,
      r.tx_hash,
      r.operation,
      r.type,
      r.contract,
      r.account,
      r.asset,
      r.amount,
      r.details,
    )
  const byAccount = raw.prepare(INSERT.accountActivities)
  for (const r of rows.accountActivities)
    byAccount.run(r.account, r.ledger, r.tx_order, r.event_index, r.protocol, r.type)
}

/** Inside the batch's PostgreSQL transaction: one statement per table, rows as parallel arrays. */
export async function writeActivityPostgres(client: pg.ClientBase, rows: ActivityRows): Promise<void> {
  const t = rows.transactions
  if (t.length === 0) return
  await client.query(
    `INSERT INTO transactions (hash, ledger, tx_order, successful, fee_charged, fee_account, source_account,
       contract, function)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::text[])`,
    [
      t.map((r) => r.hash),
      t.map((r) => r.ledger),
      t.map((r) => r.tx_order),
      t.map((r) => r.successful),
      t.map((r) => r.fee_charged),
      t.map((r) => r.fee_account),
      t.map((r) => r.source_account),
      t.map((r) => r.contract),
      t.map((r) => r.function),
    ],
  )
  const a = rows.activities
  if (a.length > 0) {
    await client.query(
      `INSERT INTO activities (ledger, tx_order, event_index, protocol, tx_hash, operation, type, contract,
         account, asset, amount, details)
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[], $6::int[], $7::text[],
         $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])`,
      [
        a.map((r) => r.ledger),
        a.map((r) => r.tx_order),
        a.map((r) => r.event_index),
        a.map((r) => r.protocol),
        a.map((r) => r.tx_hash),
        a.map((r) => r.operation),
        a.map((r) => r.type),
        a.map((r) => r.contract),
        a.map((r) => r.account),
        a.map((r) => r.asset),
        a.map((r) => r.amount),
        a.map((r) => r.details),
      ],
    )
  }
  const c = rows.accountActivities
  if (c.length > 0) {
    await client.query(
      `INSERT INTO account_activities (account, ledger, tx_order, event_index, protocol, type)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[])`,
      [
        c.map((r) => r.account),
        c.map((r) => r.ledger),
        c.map((r) => r.tx_order),
        c.map((r) => r.event_index),
        c.map((r) => r.protocol),
        c.map((r) => r.type),
      ],
    )
  }
}

/** A place in the chain: actions are ordered by it, newest first; a cursor names one. */
export interface ChainPosition {
  ledger: number
  tx_order: number
  event_index: number
}

export interface ActivityFilter {
  account: string
  protocol: string | null
  type: string | null
  from: number
  to: number
  /** Only actions strictly older than this position (decoded from a cursor). */
  before: ChainPosition | null
  limit: number
}

export interface StoredTransaction extends Omit<TransactionsTable, 'successful'> {
  successful: number | boolean
  close_time: number | null
}

export type StoredActivity = ActivitiesTable & { close_time: number | null }

const ACTION_COLUMNS = `a.ledger AS ledger, a.tx_order AS tx_order, a.event_index AS event_index,
  a.protocol AS protocol, a.tx_hash AS tx_hash, a.operation AS operation, a.type AS type,
  a.contract AS contract, a.account AS account, a.asset AS asset, a.amount AS amount,
  a.details AS details, l.close_time AS close_time`

/** An action's identity: its place in the chain and its protocol (the activities table's key). */
export interface ActivityKey {
  ledger: number
  tx_order: number
  event_index: number
  protocol: string
}

const ONE_SQL = {
  action: `SELECT ${ACTION_COLUMNS} FROM activities a LEFT JOIN ledgers l ON l.sequence = a.ledger
             WHERE a.ledger = $1 AND a.tx_order = $2 AND a.event_index = $3 AND a.protocol = $4`,
  price: `SELECT ledger, price, decimals, timestamp_ms FROM prices
            WHERE oracle = $1 AND asset = $2 AND ledger <= $3 ORDER BY ledger DESC LIMIT 1`,
  transaction: `SELECT t.hash AS hash, t.ledger AS ledger, t.tx_order AS tx_order, t.successful AS successful,
                  t.fee_charged AS fee_charged, t.fee_account AS fee_account, t.source_account AS source_account,
                  t.contract AS contract, t.function AS function, l.close_time AS close_time
                FROM transactions t LEFT JOIN ledgers l ON l.sequence = t.ledger WHERE t.hash = $1`,
} as const

/*
 * The keyset "older than (L, T, E)" is written as `ledger < L OR (ledger = L AND (tx_order < T OR
 * (tx_order = T AND event_index < E)))` (row-value comparison is not portable to every SQLite).
 * A first page passes (to + 1, 0, 0). Filters by protocol and type are optional ($n IS NULL).
 * The keys-only form (the page filter as `accountActions` binds it) reads account_activities alone.
 */
const KEYS_WHERE = `WHERE account = $1 AND ledger >= $2
        AND (ledger < $3 OR (ledger = $4 AND (tx_order < $5 OR (tx_order = $6 AND event_index < $7))))
        AND ($8 = '' OR protocol = $9)`
const KEYS_ORDER = 'ORDER BY ledger DESC, tx_order DESC, event_index DESC, protocol DESC LIMIT'

const MANY_SQL = {
  // Without a type filter the scan reads the account_activities primary-key index only.
  accountKeys: `SELECT ledger, tx_order, event_index, protocol FROM account_activities ${KEYS_WHERE}
      ${KEYS_ORDER} $10`,
  accountKeysOfType: `SELECT ledger, tx_order, event_index, protocol FROM account_activities ${KEYS_WHERE}
      AND type = $10 ${KEYS_ORDER} $11`,
  // Whether the account has any action in a ledger range (one seek on account_activities' key).
  anyOfAccount: `SELECT ledger FROM account_activities WHERE account = $1 AND ledger > $2 AND ledger <= $3
      ORDER BY ledger LIMIT 1`,
  // PostgreSQL: the actions of many keys in one round trip.
  activitiesByKeys: `SELECT ${ACTION_COLUMNS} FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[])
        AS k(ledger, tx_order, event_index, protocol)
      JOIN activities a ON a.ledger = k.ledger AND a.tx_order = k.tx_order AND a.event_index = k.event_index
        AND a.protocol = k.protocol
      LEFT JOIN ledgers l ON l.sequence = a.ledger`,
  // PostgreSQL: the latest price at or before each (oracle, asset, ledger) asked, in one round trip.
  pricesAt: `SELECT k.i AS i, p.ledger AS ledger, p.price AS price, p.decimals AS decimals,
        p.timestamp_ms AS timestamp_ms
      FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS k(oracle, asset, ledger, i)
      JOIN LATERAL (SELECT ledger, price, decimals, timestamp_ms FROM prices
        WHERE oracle = k.oracle AND asset = k.asset AND ledger <= k.ledger ORDER BY ledger DESC LIMIT 1) p ON true`,

  ofContract: `SELECT ledger, details FROM activities
      WHERE ledger >= $1 AND ledger <= $2 AND protocol = $3 AND contract = $4 AND type = $5
      ORDER BY ledger, tx_order, event_index`,
  transactionActions: `SELECT ${ACTION_COLUMNS} FROM activities a LEFT JOIN ledgers l ON l.sequence = a.ledger
                         WHERE a.tx_hash = $1 ORDER BY a.event_index, a.protocol`,
  accountActions: `SELECT ${ACTION_COLUMNS} FROM account_activities x
      JOIN activities a ON a.ledger = x.ledger AND a.tx_order = x.tx_order AND a.event_index = x.event_index
        AND a.protocol = x.protocol
      LEFT JOIN ledgers l ON l.sequence = a.ledger
      WHERE x.account = $1 AND x.ledger >= $2
        AND (x.ledger < $3 OR (x.ledger = $4 AND (x.tx_order < $5 OR (x.tx_order = $6 AND x.event_index < $7))))
        AND ($8 = '' OR x.protocol = $9) AND ($10 = '' OR x.type = $11)
      ORDER BY x.ledger DESC, x.tx_order DESC, x.event_index DESC, x.protocol DESC LIMIT $12`,
} as const

/** One stored activity of a contract, as a protocol module reads it back (its own fields in `details`, JSON). */
export interface ContractActivityRow {
  ledger: number
  details: string
}

/** What a protocol module may read of the stored activities: one contract's of one type over a ledger range. */
export interface ContractActivitiesReader {
  /**
   * The activities of `type` the contract emitted in ledgers [from, to], in chain order: one range
   * scan of the activities' primary key (ledger first), filtered by protocol, contract and type.
   */
  activitiesOfContract(
    protocol: string,
    contract: string,
    type: string,
    from: number,
    to: number,
  ): Awaitable<ContractActivityRow[]>
}

export interface ActivitiesReader extends ContractActivitiesReader {
  transaction(hash: string): Awaitable<StoredTransaction | null>
  activitiesOfTransaction(hash: string): Awaitable<StoredActivity[]>
  /** The account's actions matching the filter, newest first, at most `limit`. */
  activitiesOfAccount(filter: ActivityFilter): Awaitable<StoredActivity[]>
  /** The keys of the same actions as `activitiesOfAccount`, in the same order. */
  actionKeysOfAccount(filter: ActivityFilter): Awaitable<ActivityKey[]>
  /** Whether the account has an action in a ledger of `(after, upTo]` (any protocol and type). */
  hasActivitiesBetween(account: string, after: number, upTo: number): Awaitable<boolean>
  /** The stored actions of the keys given (in any order; a key not stored is left out). */
  activitiesByKeys(keys: readonly ActivityKey[]): Awaitable<StoredActivity[]>
  /** The latest price at or before each ledger asked (null: none), in the order asked. */
  pricesAt(
    wanted: ReadonlyArray<{ oracle: string; asset: string; ledger: number }>,
  ): Awaitable<Array<PriceRow | null>>
}

/** The keyset bounds of a filter: strictly older than the cursor, and never past `to`. */
function keysetParams(f: ActivityFilter) {
  const b = f.before ?? { ledger: f.to + 1, tx_order: 0, event_index: 0 }
  // Never past `to`: a cursor from a wider query cannot widen this one.
  const pos = b.ledger > f.to ? { ledger: f.to + 1, tx_order: 0, event_index: 0 } : b
  const protocol = f.protocol ?? ''
  return [
    f.account,
    f.from,
    pos.ledger,
    pos.ledger,
    pos.tx_order,
    pos.tx_order,
    pos.event_index,
    protocol,
    protocol,
  ]
}

export function createActivitiesReader(database: Database): ActivitiesReader {
  const one = createQueryOne(database, ONE_SQL, 'activities')
  const many = createQueryMany(database, MANY_SQL, 'activities_many')
  return {
    transaction: (hash) => one<StoredTransaction>('transaction', [hash]),
    activitiesOfTransaction: (hash) => many<StoredActivity>('transactionActions', [hash]),
    activitiesOfContract: (protocol, contract, type, from, to) =>
      many<ContractActivityRow>('ofContract', [from, to, protocol, contract, type]),
    activitiesOfAccount(f) {
      const type = f.type ?? ''
      return many<StoredActivity>('accountActions', [...keysetParams(f), type, type, f.limit])
    },
    actionKeysOfAccount(f) {
      return f.type === null
        ? many<ActivityKey>('accountKeys', [...keysetParams(f), f.limit])
        : many<ActivityKey>('accountKeysOfType', [...keysetParams(f), f.type, f.limit])
    },
    async hasActivitiesBetween(account, after, upTo) {
      return (await many<{ ledger: number }>('anyOfAccount', [account, after, upTo])).length > 0
    },
    async activitiesByKeys(keys) {
      if (keys.length === 0) return []
      // In process a seek per key is the cheapest; over the network the keys travel together.
      if (database.inProcess) {
        const found: StoredActivity[] = []
        for (const k of keys) {
          const row = await one<StoredActivity>('action', [k.ledger, k.tx_order, k.event_index, k.protocol])
          if (row) found.push(row)
        }
        return found
      }
      return many<StoredActivity>('activitiesByKeys', [
        keys.map((k) => k.ledger),
        keys.map((k) => k.tx_order),
        keys.map((k) => k.event_index),
        keys.map((k) => k.protocol),
      ] as never)
    },
    async pricesAt(wanted) {
      if (wanted.length === 0) return []
      if (database.inProcess) {
        const found: Array<PriceRow | null> = []
        for (const w of wanted) found.push(await one<PriceRow>('price', [w.oracle, w.asset, w.ledger]))
        return found
      }
      const rows = await many<PriceRow & { i: number | string }>('pricesAt', [
        wanted.map((w) => w.oracle),
        wanted.map((w) => w.asset),
        wanted.map((w) => w.ledger),
      ] as never)
      const found: Array<PriceRow | null> = wanted.map(() => null)
      for (const { i, ...row } of rows) found[Number(i) - 1] = row
      return found
    },
  }
}

/**
 * Appends one ledger's transactions (every one that touched a watched contract, failed ones too)
 * and its decoded actions to a batch's rows. Each action is listed under its account and its
 * counterparties.
 */
export function buildActivityRows(
  ledger: DecodedLedger,
  actions: readonly DecodedActivity[],
  out: ActivityRows,
): void {
  const order = new Map<string, number>()
  ledger.transactions.forEach((tx, i) => {
    order.set(tx.hash, i)
    out.transactions.push({
      hash: tx.hash,
      ledger: ledger.sequence,
      tx_order: i,
      successful: tx.successful ? 1 : 0,
      fee_charged: tx.feeCharged.toString(),
      fee_account: tx.feeAccount,
      source_account: tx.sourceAccount,
      contract: tx.invoked?.contract ?? null,
      function: tx.invoked?.fn ?? null,
    })
  })
  for (const action of actions) {
    const txOrder = order.get(action.tx_hash)
    // An action names a transaction of its own ledger; one that does not is a module's bug.
    if (txOrder === undefined)
      throw new Error(`action ${action.type} names unknown transaction ${action.tx_hash}`)
    const row = buildActivityRow(action as unknown as Parameters<typeof buildActivityRow>[0], txOrder)
    out.activities.push(row)
    // Listed under its account and under each other account it concerns, once each.
    for (const account of new Set([row.account, ...(action.counterparties ?? [])])) {
      out.accountActivities.push({
        account,
        ledger: row.ledger,
        tx_order: row.tx_order,
        event_index: row.event_index,
        protocol: row.protocol,
        type: row.type,
      })
    }
  }
}
