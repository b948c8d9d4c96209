import type { Kysely } from 'kysely'

/**
 * - `organization_usage`: the requests of each organization counted against its quota, per UTC
 *   day (`day` is `YYYY-MM-DD`). Each process counts in memory and adds its counts in batches
 *   (`requests = requests + excluded.requests`), so the rows of several instances add up.
 * - `ledgers_close_time`: the latest ledger closed at or before a time is one seek
 *   (`GET /v1/ledgers/at-time`); with the sequence in the index, the checkpoint bound and the
 *   order are answered from it too.
 * - `audit_events_org_action_seq`: one organization's events of one action, newest first
 *   (`GET /v1/org/audit-log?action=…`), read from the index however long the log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organization_usage')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_usage_pk', ['organization_id', 'day'])
    .execute()
  await db.schema
    .createIndex('ledgers_close_time')
    .on('ledgers')
    .columns(['close_time', 'sequence'])
    .execute()
  await db.schema
    .createIndex('audit_events_org_action_seq')
    .on('audit_events')
    .columns(['organization_id', 'action', 'seq'])
    .execute()
}
