import type { Kysely } from 'kysely'

/**
 * Decoded protocol actions and the transactions that carry them.
 * - `transactions`: one row per transaction that touched a watched contract, failed ones included
 *   (with no actions): its ledger, order in the ledger, success, fee, fee account, and from its
 *   envelope the source account and the watched contract and function it invoked.
 * - `actions`: one row per decoded action, keyed by its place in the chain (ledger, transaction
 *   order, event order): amounts as decimal strings, the module's own fields as JSON.
 * - `account_actions`: one row per account an action concerns (a liquidation's user and its
 *   filler), ordered like the chain, so an account's activities newest first are one range scan
 *   and a keyset cursor on (ledger, tx_order, event_index) stays stable while ledgers are added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transactions')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('tx_order', 'integer', (c) => c.notNull())
    .addColumn('successful', 'integer', (c) => c.notNull())
    .addColumn('fee_charged', 'text', (c) => c.notNull())
    .addColumn('fee_account', 'text')
    .addColumn('source_account', 'text')
    .addColumn('contract', 'text')
    .addColumn('function', 'text')
    .execute()
  await db.schema
    .createTable('actions')
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('tx_order', 'integer', (c) => c.notNull())
    .addColumn('event_index', 'integer', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('operation', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('asset', 'text')
    .addColumn('amount', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('actions_pk', ['ledger', 'tx_order', 'event_index', 'protocol'])
    .execute()
  await db.schema.createIndex('actions_tx_hash').on('actions').column('tx_hash').execute()
  await db.schema
    .createTable('account_actions')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('tx_order', 'integer', (c) => c.notNull())
    .addColumn('event_index', 'integer', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_actions_pk', [
      'account',
      'ledger',
      'tx_order',
      'event_index',
      'protocol',
    ])
    .execute()
}
