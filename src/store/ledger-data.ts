import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type pg from 'pg'
import { checkNextLedger } from '../chain/ledger-continuity.ts'
import { type ActivityRows, writeActivityPostgres, writeActivitySqlite } from './activities.ts'
import type { BatchWriter, Database, PreparedQuery } from './db.ts'
import type { ContractStateTable, LedgersTable, PricesTable, SnapshotsTable } from './schema.ts'
import { writeOutboxPostgres, writeOutboxSqlite } from './webhook-outbox.ts'

export type ContractStateRow = ContractStateTable

/** The checkpoint row of the main ledger stream in `indexer_state`. */
export const LEDGER_STREAM = 'ledgers'

/** Everything one ingested batch of ledgers writes, committed together with its checkpoint. */
export interface LedgerBatch {
  /** The checkpoint this batch continues from (null on an empty store); a mismatch aborts the write. */
  previousLedger: number | null
  /**
   * The hash the batch's first ledger names as its predecessor's (lowercase hex). It must equal the
   * stored hash of `previousLedger`: a store is never continued from another chain.
   */
  previousHash: string
  /** The new checkpoint: the last ledger of the batch. */
  lastLedger: number
  ledgers: LedgersTable[]
  snapshots: SnapshotsTable[]
  /** Contract-state entries whose value changed, one row per entry and ledger. */
  states: ContractStateRow[]
  prices: PricesTable[]
  /** Transactions that touched watched contracts and their decoded activities (store/activities.ts). */
  activity?: ActivityRows
  /** Epoch milliseconds, for operators; not part of the indexed data. */
  updatedAt: number
}

/** Another writer moved the checkpoint: this process's in-memory state no longer matches the store. */
export class CheckpointConflictError extends Error {
  constructor(expected: number | null, found: number | null) {
    super(`indexer checkpoint is ${found ?? 'empty'}, expected ${expected ?? 'empty'}: another indexer wrote`)
    this.name = 'CheckpointConflictError'
  }
}

export async function getCheckpoint(database: Database, stream = LEDGER_STREAM): Promise<number | null> {
  const row = await database.db
    .selectFrom('indexer_state')
    .select('last_ledger')
    .where('name', '=', stream)
    .executeTakeFirst()
  return row === undefined ? null : Number(row.last_ledger)
}

const LATEST_POSITION_SQL =
  'SELECT positions FROM snapshots WHERE protocol = $1 AND address = $2 ORDER BY ledger DESC LIMIT 1'
const LATEST_POSITIONS_SQL = `SELECT a.address, s.positions FROM unnest($2::text[]) AS a(address)
  CROSS JOIN LATERAL (SELECT positions FROM snapshots
    WHERE protocol = $1 AND address = a.address ORDER BY ledger DESC LIMIT 1) s`
const LATEST_STATE_SQL =
  'SELECT value FROM contract_state WHERE contract = $1 AND key = $2 ORDER BY ledger DESC LIMIT 1'
const LATEST_STATES_SQL = `SELECT e.contract, e.key, s.value FROM unnest($1::text[], $2::text[]) AS e(contract, key)
  CROSS JOIN LATERAL (SELECT value FROM contract_state
    WHERE contract = e.contract AND key = e.key ORDER BY ledger DESC LIMIT 1) s`

/** Prepared statements of the change detection, per database object. */
const readers = new WeakMap<Database, Record<'position' | 'positions' | 'state' | 'states', PreparedQuery>>()

function changeReaders(database: Database) {
  let found = readers.get(database)
  if (!found) {
    found = {
      position: database.prepare(LATEST_POSITION_SQL, 'ledger_data_latest_position'),
      positions: database.prepare(LATEST_POSITIONS_SQL, 'ledger_data_latest_positions'),
      state: database.prepare(LATEST_STATE_SQL, 'ledger_data_latest_state'),
      states: database.prepare(LATEST_STATES_SQL, 'ledger_data_latest_states'),
    }
    readers.set(database, found)
  }
  return found
}

/**
 * The latest snapshot's positions JSON of each address (absent when the address has none): the
 * current state the indexer continues from, loaded only for the accounts a batch touches. One index
 * seek per address on the snapshots' primary key: a call each in process, one statement for all of
 * them over the network.
 */
export async function loadLatestPositions(
  database: Database,
  protocol: string,
  addresses: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  if (addresses.length === 0) return found
  const read = changeReaders(database)
  if (database.inProcess) {
    for (const address of addresses) {
      const row = await read.position.one<{ positions: string }>([protocol, address])
      if (row) found.set(address, row.positions)
    }
    return found
  }
  const rows = await read.positions.all<{ address: string; positions: string }>([protocol, addresses])
  for (const row of rows) found.set(row.address, row.positions)
  return found
}

/**
 * The latest stored value (JSON) of each contract-state entry asked for, keyed `contract\u0000key`;
 * absent when never written. One seek per entry, batched as `loadLatestPositions`; entries are per
 * contract, never per account.
 */
export async function loadLatestStates(
  database: Database,
  entries: ReadonlyArray<{ contract: string; key: string }>,
): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  if (entries.length === 0) return found
  const read = changeReaders(database)
  if (database.inProcess) {
    for (const { contract, key } of entries) {
      const row = await read.state.one<{ value: string }>([contract, key])
      if (row) found.set(`${contract}\u0000${key}`, row.value)
    }
    return found
  }
  const rows = await read.states.all<{ contract: string; key: string; value: string }>([
    entries.map((e) => e.contract),
    entries.map((e) => e.key),
  ])
  for (const row of rows) found.set(`${row.contract}\u0000${row.key}`, row.value)
  return found
}

/** The stored hash of one ledger, or null when that ledger was never ingested. */
export async function getLedgerHash(database: Database, sequence: number): Promise<string | null> {
  const row = await database.db
    .selectFrom('ledgers')
    .select('hash')
    .where('sequence', '=', sequence)
    .executeTakeFirst()
  return row?.hash ?? null
}

/**
 * Writes a batch and its checkpoint in one transaction: all of it lands, or none of it, the
 * webhooks' outbox messages of its events included (store/webhook-outbox.ts). The indexer
 * passes its lock's writer (`WriterLock.writer`), so on PostgreSQL a batch commits only while the
 * lock is held.
 */
export async function writeLedgerBatch(
  database: Database,
  batch: LedgerBatch,
  writer: BatchWriter = database.writer,
): Promise<void> {
  if (writer.serial) await writer.run((raw) => writeSqliteBatch(raw, batch))
  else await writer.run((client) => writePostgresBatch(client, batch))
}

interface SqliteStatements {
  checkpoint: StatementSync
  ledgerHash: StatementSync
  ledger: StatementSync
  snapshot: StatementSync
  state: StatementSync
  price: StatementSync
  saveCheckpoint: StatementSync
}

const sqliteStatements = new WeakMap<DatabaseSync, SqliteStatements>()

function prepareSqlite(raw: DatabaseSync): SqliteStatements {
  let statements = sqliteStatements.get(raw)
  if (statements === undefined) {
    statements = {
      checkpoint: raw.prepare('SELECT last_ledger FROM indexer_state WHERE name = ?'),
      ledgerHash: raw.prepare('SELECT hash FROM ledgers WHERE sequence = ?'),
      ledger: raw.prepare('INSERT INTO ledgers (sequence, hash, close_time) VALUES (?, ?, ?)'),
      snapshot: raw.prepare(
        'INSERT INTO snapshots (protocol, address, ledger, positions) VALUES (?, ?, ?, ?)',
      ),
      state: raw.prepare('INSERT INTO contract_state (contract, key, ledger, value) VALUES (?, ?, ?, ?)'),
      price: raw.prepare(
        'INSERT INTO prices (oracle, asset, ledger, price, decimals, timestamp_ms) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      saveCheckpoint: raw.prepare(
        `INSERT INTO indexer_state (name, last_ledger, first_ledger, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET last_ledger = excluded.last_ledger, updated_at = excluded.updated_at`,
      ),
    }
    sqliteStatements.set(raw, statements)
  }
  return statements
}

/**
 * The batch continues the stored checkpoint `found` (held with hash `storedHash`): the last line
 * of defence, inside the write transaction, against a gap or another chain ever being written.
 */
function requireContinues(batch: LedgerBatch, found: number, storedHash: string | null): void {
  checkNextLedger(
    { sequence: found, hash: storedHash },
    { sequence: batch.ledgers[0]!.sequence, previousHash: batch.previousHash },
  )
}

/**
 * Synchronous on purpose, inside the serial writer's transaction (BEGIN IMMEDIATE taken before,
 * COMMIT after, a failure rolled back there without hiding its error): the connection is shared
 * with the API in the same process, and no other statement or transaction runs on it meanwhile.
 */
function writeSqliteBatch(raw: DatabaseSync, batch: LedgerBatch): void {
  const s = prepareSqlite(raw)
  const row = s.checkpoint.get(LEDGER_STREAM) as { last_ledger: number } | undefined
  const found = row === undefined ? null : Number(row.last_ledger)
  if (found !== batch.previousLedger) throw new CheckpointConflictError(batch.previousLedger, found)
  if (found !== null) {
    const stored = s.ledgerHash.get(found) as { hash: string } | undefined
    requireContinues(batch, found, stored?.hash ?? null)
  }
  for (const l of batch.ledgers) s.ledger.run(l.sequence, l.hash, l.close_time)
  for (const r of batch.snapshots) s.snapshot.run(r.protocol, r.address, r.ledger, r.positions)
  for (const r of batch.states) s.state.run(r.contract, r.key, r.ledger, r.value)
  for (const r of batch.prices) s.price.run(r.oracle, r.asset, r.ledger, r.price, r.decimals, r.timestamp_ms)
  if (batch.activity) writeActivitySqlite(raw, batch.activity)
  writeOutboxSqlite(raw, batch.snapshots, batch.activity, batch.updatedAt)
  s.saveCheckpoint.run(LEDGER_STREAM, batch.lastLedger, batch.ledgers[0]!.sequence, batch.updatedAt)
}

/** One statement per table: the rows travel as parallel arrays and `unnest` turns them back into rows. */
async function writePostgresBatch(client: pg.ClientBase, batch: LedgerBatch): Promise<void> {
  await client.query('BEGIN')
  try {
    const result = await client.query<{ last_ledger: number }>(
      'SELECT last_ledger FROM indexer_state WHERE name = $1 FOR UPDATE',
      [LEDGER_STREAM],
    )
    const found = result.rows[0] === undefined ? null : Number(result.rows[0].last_ledger)
    if (found !== batch.previousLedger) throw new CheckpointConflictError(batch.previousLedger, found)
    if (found !== null) {
      const stored = await client.query<{ hash: string }>('SELECT hash FROM ledgers WHERE sequence = $1', [
        found,
      ])
      requireContinues(batch, found, stored.rows[0]?.hash ?? null)
    }
    if (batch.ledgers.length > 0) {
      await client.query(
        `INSERT INTO ledgers (sequence, hash, close_time)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])`,
        [
          batch.ledgers.map((l) => l.sequence),
          batch.ledgers.map((l) => l.hash),
          batch.ledgers.map((l) => l.close_time),
        ],
      )
    }
    if (batch.snapshots.length > 0) {
      const rows = batch.snapshots
      await client.query(
        `INSERT INTO snapshots (protocol, address, ledger, positions)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])`,
        [
          rows.map((r) => r.protocol),
          rows.map((r) => r.address),
          rows.map((r) => r.ledger),
          rows.map((r) => r.positions),
        ],
      )
    }
    if (batch.states.length > 0) {
      const rows = batch.states
      await client.query(
        `INSERT INTO contract_state (contract, key, ledger, value)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])`,
        [
          rows.map((r) => r.contract),
          rows.map((r) => r.key),
          rows.map((r) => r.ledger),
          rows.map((r) => r.value),
        ],
      )
    }
    if (batch.prices.length > 0) {
      const rows = batch.prices
      await client.query(
        `INSERT INTO prices (oracle, asset, ledger, price, decimals, timestamp_ms)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::bigint[])`,
        [
          rows.map((r) => r.oracle),
          rows.map((r) => r.asset),
          rows.map((r) => r.ledger),
          rows.map((r) => r.price),
          rows.map((r) => r.decimals),
          rows.map((r) => r.timestamp_ms),
        ],
      )
    }
    if (batch.activity) await writeActivityPostgres(client, batch.activity)
    await writeOutboxPostgres(client, batch.snapshots, batch.activity, batch.updatedAt)
    await client.query(
      `INSERT INTO indexer_state (name, last_ledger, first_ledger, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO UPDATE SET last_ledger = excluded.last_ledger, updated_at = excluded.updated_at`,
      [LEDGER_STREAM, batch.lastLedger, batch.ledgers[0]!.sequence, batch.updatedAt],
    )
    await client.query('COMMIT')
  } catch (error) {
    // The real error is thrown, whatever the ROLLBACK says.
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
