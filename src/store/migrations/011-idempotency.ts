import type { Kysely } from 'kysely'

/**
 * `idempotency_keys`: the responses kept for the `Idempotency-Key` header of the requests that
 * create a secret (src/api/idempotency.ts). A row is found by `lookup`, an HMAC (server pepper)
 * of the caller's scope and the key, never the key itself; `response` is the kept answer
 * encrypted with a key derived from the Idempotency-Key, so the table alone reveals no secret.
 * `expires_at` is indexed: each new claim deletes the rows past it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('lookup', 'text', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('response', 'text')
    .execute()
  await db.schema
    .createIndex('idempotency_keys_expires_at')
    .on('idempotency_keys')
    .column('expires_at')
    .execute()
}
