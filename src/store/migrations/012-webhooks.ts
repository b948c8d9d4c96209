import { type Kysely, SqliteIntrospector } from 'kysely'

/**
 * Webhook subscriptions and their outbox (docs/webhooks.md):
 * - `webhooks`: an organization's subscriptions. `events`, `addresses` and `protocols` are JSON
 *   arrays (`addresses`/`protocols` null: every account / every protocol). `secret` is the signing
 *   secret sealed with a key derived from the server pepper (never stored in clear); after a
 *   rotation, `previous_secret` also signs until `previous_secret_until`, so a receiver can switch
 *   without losing a delivery. `status` is
 *   `enabled` or `disabled` (`disabled_reason` says why). `lease_owner`/`lease_until` are the
 *   claim of the one delivering process (a lease, so a killed process's claim ends by itself);
 *   `next_attempt_at` is when the subscription's oldest undelivered message is due;
 *   every message with `seq <= processed_seq` is delivered or given up, so the next one to send
 *   is found by a short range scan of the one index, however long the subscription's history.
 * - `webhook_messages`: the outbox. One row per event and subscription, written in the indexer's
 *   batch transaction (`position.changed`, `activity.created`) so a message exists if and only if
 *   its ledger is committed; `seq` is their order, hence the ledger order per subscription.
 *   `ref` locates the event's source (an activity's `tx_order:event_index`, a crossing's values);
 *   `payload` is the body as first sent (rendered once, resent byte for byte). `status` is
 *   `pending`, `delivered` or `failed`; the last attempt's outcome is kept beside it. One index,
 *   `(webhook_id, seq)`, serves the queue and the deliveries list: every index more is written
 *   with every message, in the indexer's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.introspection instanceof SqliteIntrospector
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('addresses', 'text')
    .addColumn('protocols', 'text')
    .addColumn('health_factor_threshold', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('processed_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('webhooks_organization').on('webhooks').column('organization_id').execute()

  await db.schema
    .createTable('webhook_messages')
    .addColumn('seq', sqlite ? 'integer' : 'bigint', (c) =>
      sqlite ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('ledger', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('payload', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .execute()
  await db.schema
    .createIndex('webhook_messages_webhook_seq')
    .on('webhook_messages')
    .columns(['webhook_id', 'seq'])
    .execute()
}
