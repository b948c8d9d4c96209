import type { Kysely } from 'kysely'
import type { IdempotencyKeysTable, Schema } from './schema.ts'

export type IdempotencyRow = IdempotencyKeysTable

/**
 * What claiming an Idempotency-Key found: `claimed` when this request now holds it (a new row, or
 * an abandoned running one taken over) and runs; otherwise the row another request holds.
 */
export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'held'; row: IdempotencyRow }

/**
 * Claims `lookup` for a request starting at `now`. Expired rows are deleted first (every claim
 * does: the table holds no row past its 24 hours beyond the next idempotent request). A running
 * row that started at or before `abandonedBefore` (its request died without an answer) is taken
 * over. Concurrent claims of one lookup: the primary key lets exactly one insert, and the
 * take-over's condition lets exactly one update.
 */
export async function claimIdempotencyKey(
  db: Kysely<Schema>,
  claim: { lookup: string; fingerprint: string; now: number; expiresAt: number; abandonedBefore: number },
): Promise<IdempotencyClaim> {
  const { lookup, fingerprint, now, expiresAt, abandonedBefore } = claim
  await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).execute()
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ lookup, fingerprint, started_at: now, expires_at: expiresAt, response: null })
    .onConflict((oc) => oc.column('lookup').doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'claimed' }
  const row = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('lookup', '=', lookup)
    .executeTakeFirst()
  // Gone between the insert and the read (released by a failed first request): claim it again.
  if (!row) return claimIdempotencyKey(db, claim)
  if (row.response === null && row.fingerprint === fingerprint && Number(row.started_at) <= abandonedBefore) {
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ started_at: now, expires_at: expiresAt })
      .where('lookup', '=', lookup)
      .where('response', 'is', null)
      .where('started_at', '=', row.started_at)
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed' }
  }
  return {
    kind: 'held',
    row: { ...row, started_at: Number(row.started_at), expires_at: Number(row.expires_at) },
  }
}

/** Keeps the answer of the request holding `lookup` since `startedAt`; false when it no longer holds it. */
export async function completeIdempotencyKey(
  db: Kysely<Schema>,
  lookup: string,
  startedAt: number,
  response: string,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ response })
    .where('lookup', '=', lookup)
    .where('started_at', '=', startedAt)
    .where('response', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Lets go of `lookup` after a request that failed: the key may be used again at once. */
export async function releaseIdempotencyKey(
  db: Kysely<Schema>,
  lookup: string,
  startedAt: number,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('lookup', '=', lookup)
    .where('started_at', '=', startedAt)
    .where('response', 'is', null)
    .execute()
}
