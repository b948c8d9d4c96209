import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
} from 'kysely/migration'
import type { Database } from './db.ts'
import * as organizations from './migrations/001-organizations.ts'
import * as ledgerData from './migrations/002-ledger-data.ts'
import * as network from './migrations/003-network.ts'
import * as mainnetLayout from './migrations/004-mainnet-layout.ts'
import * as coverage from './migrations/005-coverage.ts'
import * as contractState from './migrations/006-contract-state.ts'
import * as management from './migrations/007-management.ts'
import * as actions from './migrations/008-actions.ts'
import * as authGeneration from './migrations/009-auth-generation.ts'
import * as activities from './migrations/010-activities.ts'
import * as idempotency from './migrations/011-idempotency.ts'
import * as webhooks from './migrations/012-webhooks.ts'
import * as consoleReads from './migrations/013-console-reads.ts'
import * as stateNotifications from './migrations/014-state-notifications.ts'
import { classifyStoreError, StoreStartError } from './store-errors.ts'

/** Every migration, in order. Names sort lexically; never rename or edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '001-organizations': organizations,
  '002-ledger-data': ledgerData,
  '003-network': network,
  '004-mainnet-layout': mainnetLayout,
  '005-coverage': coverage,
  '006-contract-state': contractState,
  '007-management': management,
  '008-actions': actions,
  '009-auth-generation': authGeneration,
  '010-activities': activities,
  '011-idempotency': idempotency,
  '012-webhooks': webhooks,
  '013-console-reads': consoleReads,
  '014-state-notifications': stateNotifications,
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export function migrateToLatest(database: Database): Promise<string[]> {
  return migrate(database, (migrator) => migrator.migrateToLatest())
}

/**
 * Applies the pending migrations up to and including `name` (a store as that release left it, for
 * testing a later migration on it); returns the names applied.
 */
export function migrateUpTo(database: Database, name: keyof typeof MIGRATIONS): Promise<string[]> {
  return migrate(database, (migrator) => migrator.migrateTo(name))
}

async function migrate(
  database: Database,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<string[]> {
  // Kysely looks for its own tables in every schema unless told which one: a schema-isolated
  // database would otherwise find another schema's migration tables and skip creating its own.
  const migrationTableSchema = database.migrationSchema
  const migrator = new Migrator({
    db: database.migrationDb,
    provider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  })
  let outcome: MigrationResultSet
  try {
    outcome = await run(migrator)
    // An up-to-date store writes nothing above: one write that changes nothing proves the file
    // can be written before a command starts on it (SQLite opens an unwritable file read-only).
    const writer = database.writer
    if (outcome.error === undefined && writer.serial) {
      await writer.run((raw) => raw.exec(`UPDATE ${DEFAULT_MIGRATION_LOCK_TABLE} SET is_locked = is_locked`))
    }
  } catch (error) {
    outcome = { error }
  }
  const { error, results } = outcome
  if (error) {
    // A database that cannot be written, read or reached is named (a file with its path) with the
    // cause: the one line a command prints when it cannot start (`strata serve`, `index`, `migrate`).
    if (classifyStoreError(error)) {
      throw new StoreStartError(database.kind === 'sqlite' ? `at ${database.path}` : 'on PostgreSQL', error)
    }
    throw error instanceof Error ? error : new Error(String(error))
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
