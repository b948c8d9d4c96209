import type { Kysely } from 'kysely'

/**
 * The decoded protocol activities' tables take the name the API and the code give them:
 * `actions` -> `activities`, `account_actions` -> `account_activities`. A rename changes the
 * catalogue only, on SQLite and PostgreSQL alike: every row, column, key and index stays as it is,
 * and the keys and the index keep the names migration 008 gave them (`actions_pk`,
 * `account_actions_pk`, `actions_tx_hash`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('actions').renameTo('activities').execute()
  await db.schema.alterTable('account_actions').renameTo('account_activities').execute()
}
