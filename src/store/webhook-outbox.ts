import type { DatabaseSync } from 'node:sqlite'
import type pg from 'pg'
import type { ActivityRows } from './activities.ts'
import type { SnapshotsTable } from './schema.ts'

/**
 * The webhooks' outbox, written in the indexer's batch transaction (store/ledger-data.ts): one
 * `webhook_messages` row per event of the batch and enabled subscription that wants it. A message
 * therefore exists if and only if its ledger is committed, and a crash between two batches loses
 * none. The subscriptions are read inside the same transaction, so a subscription created before
 * a commit gets every event of that commit's ledgers, and one disabled or deleted before it gets
 * none.
 *
 * Events, in the order they are written (the delivery order of a subscription):
 * - `activity.created`: an activity of a watched account (`account_activities`), in the ledger's
 *   order of transactions and events; `ref` is `tx_order:event_index`;
 * - `position.changed`: a new snapshot of a watched account, after the activities of its ledger
 *   (an activity is what changed the positions), by protocol, then address.
 * `health_factor.below` is not written here: a health factor moves with prices as well as with
 * positions, and is judged after the batch (src/push/health-crossings.ts).
 */

/** The events the outbox writes in the batch transaction. */
export const POSITION_CHANGED = 'position.changed'
export const ACTIVITY_CREATED = 'activity.created'

/** A message to write: the subscription, the event and where its payload comes from. */
export interface OutboxMessage {
  webhookId: string
  type: string
  ledger: number
  address: string
  protocol: string
  ref: string | null
}

/** An enabled subscription as the outbox matches it. */
interface Matcher {
  id: string
  version: number
  events: ReadonlySet<string>
  /** null: every account. */
  addresses: ReadonlySet<string> | null
  /** null: every protocol. */
  protocols: ReadonlySet<string> | null
}

interface SubscriptionRow {
  id: string
  updated_at: number | string
  events: string
  addresses: string | null
  protocols: string | null
}

/** Parsed subscriptions by id, re-parsed only when their row changed (1,000 addresses each, every batch). */
const parsed = new Map<string, Matcher>()

const asSet = (json: string | null): ReadonlySet<string> | null =>
  json === null ? null : new Set(JSON.parse(json) as string[])

function matchersOf(rows: readonly SubscriptionRow[]): Matcher[] {
  const out: Matcher[] = []
  for (const row of rows) {
    const version = Number(row.updated_at)
    let matcher = parsed.get(row.id)
    if (matcher === undefined || matcher.version !== version) {
      matcher = {
        id: row.id,
        version,
        events: new Set(JSON.parse(row.events) as string[]),
        addresses: asSet(row.addresses),
        protocols: asSet(row.protocols),
      }
      parsed.set(row.id, matcher)
    }
    out.push(matcher)
  }
  if (parsed.size > out.length * 2 + 64) {
    const live = new Set(out.map((m) => m.id))
    for (const id of parsed.keys()) if (!live.has(id)) parsed.delete(id)
  }
  return out
}

const wants = (m: Matcher, type: string, address: string, protocol: string): boolean =>
  m.events.has(type) &&
  (m.addresses === null || m.addresses.has(address)) &&
  (m.protocols === null || m.protocols.has(protocol))

/** What the subscriptions want of a batch, in delivery order. */
export function outboxMessages(
  subscriptions: readonly SubscriptionRow[],
  snapshots: readonly SnapshotsTable[],
  activity: ActivityRows | undefined,
): OutboxMessage[] {
  if (subscriptions.length === 0) return []
  const matchers = matchersOf(subscriptions)
  type Keyed = OutboxMessage & { order: [number, number, number, string, string] }
  const out: Keyed[] = []
  for (const row of activity?.accountActivities ?? []) {
    for (const m of matchers) {
      if (!wants(m, ACTIVITY_CREATED, row.account, row.protocol)) continue
      out.push({
        webhookId: m.id,
        type: ACTIVITY_CREATED,
        ledger: row.ledger,
        address: row.account,
        protocol: row.protocol,
        ref: `${row.tx_order}:${row.event_index}`,
        order: [row.ledger, 0, row.tx_order * 1_000_000 + row.event_index, row.account, m.id],
      })
    }
  }
  for (const row of snapshots) {
    for (const m of matchers) {
      if (!wants(m, POSITION_CHANGED, row.address, row.protocol)) continue
      out.push({
        webhookId: m.id,
        type: POSITION_CHANGED,
        ledger: row.ledger,
        address: row.address,
        protocol: row.protocol,
        ref: null,
        order: [row.ledger, 1, 0, `${row.protocol}\u0000${row.address}`, m.id],
      })
    }
  }
  out.sort((a, b) => {
    for (let i = 0; i < 5; i++) {
      const x = a.order[i]!
      const y = b.order[i]!
      if (x !== y) return x < y ? -1 : 1
    }
    return 0
  })
  return out.map(({ order: _order, ...message }) => message)
}

const SUBSCRIPTIONS_SQL =
  "SELECT id, updated_at, events, addresses, protocols FROM webhooks WHERE status = 'enabled'"
const INSERT_SQL = `INSERT INTO webhook_messages
  (webhook_id, type, ledger, address, protocol, ref, status, attempts, created_at)
  VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?)`

/** The channel a PostgreSQL commit with new messages notifies (src/push/webhook-dispatcher.ts listens). */
export const WEBHOOK_CHANNEL = 'strata_webhooks'

/** Rows per multi-row INSERT on SQLite: one statement call instead of 64. */
const CHUNK = 64
const INSERT_CHUNK_SQL = `INSERT INTO webhook_messages
  (webhook_id, type, ledger, address, protocol, ref, status, attempts, created_at)
  VALUES ${Array(CHUNK).fill("(?, ?, ?, ?, ?, ?, 'pending', 0, ?)").join(', ')}`

const sqliteStatements = new WeakMap<
  DatabaseSync,
  {
    subscriptions: ReturnType<DatabaseSync['prepare']>
    insert: ReturnType<DatabaseSync['prepare']>
    insertChunk: ReturnType<DatabaseSync['prepare']>
  }
>()

/** The outbox rows of a batch, inside the SQLite batch transaction. Returns how many were written. */
export function writeOutboxSqlite(
  raw: DatabaseSync,
  snapshots: readonly SnapshotsTable[],
  activity: ActivityRows | undefined,
  at: number,
): number {
  let s = sqliteStatements.get(raw)
  if (s === undefined) {
    s = {
      subscriptions: raw.prepare(SUBSCRIPTIONS_SQL),
      insert: raw.prepare(INSERT_SQL),
      insertChunk: raw.prepare(INSERT_CHUNK_SQL),
    }
    sqliteStatements.set(raw, s)
  }
  const subscriptions = s.subscriptions.all() as unknown as SubscriptionRow[]
  const messages = outboxMessages(subscriptions, snapshots, activity)
  let i = 0
  for (; i + CHUNK <= messages.length; i += CHUNK) {
    const values: Array<string | number | null> = []
    for (let j = i; j < i + CHUNK; j++) {
      const m = messages[j]!
      values.push(m.webhookId, m.type, m.ledger, m.address, m.protocol, m.ref, at)
    }
    s.insertChunk.run(...values)
  }
  for (; i < messages.length; i++) {
    const m = messages[i]!
    s.insert.run(m.webhookId, m.type, m.ledger, m.address, m.protocol, m.ref, at)
  }
  return messages.length
}

/**
 * The outbox rows of a batch, inside the PostgreSQL batch transaction, in one statement (rows in
 * `seq` order: WITH ORDINALITY keeps the array order), and, while any subscription is enabled, a
 * NOTIFY that PostgreSQL delivers at the commit (and never for a rolled-back batch).
 */
export async function writeOutboxPostgres(
  client: pg.ClientBase,
  snapshots: readonly SnapshotsTable[],
  activity: ActivityRows | undefined,
  at: number,
): Promise<number> {
  const { rows } = await client.query<SubscriptionRow>(SUBSCRIPTIONS_SQL)
  if (rows.length === 0) return 0
  const messages = outboxMessages(rows, snapshots, activity)
  // Every commit while a subscription is enabled notifies, messages or not: the
  // health_factor.below evaluators of other processes judge each committed range on it.
  if (messages.length === 0) {
    await client.query(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`)
    return 0
  }
  await client.query(
    `INSERT INTO webhook_messages (webhook_id, type, ledger, address, protocol, ref, status, attempts, created_at)
     SELECT w, t, l, a, p, r, 'pending', 0, $7
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[])
       WITH ORDINALITY AS m(w, t, l, a, p, r, n)
     ORDER BY n`,
    [
      messages.map((m) => m.webhookId),
      messages.map((m) => m.type),
      messages.map((m) => m.ledger),
      messages.map((m) => m.address),
      messages.map((m) => m.protocol),
      messages.map((m) => m.ref),
      at,
    ],
  )
  await client.query(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`)
  return messages.length
}
