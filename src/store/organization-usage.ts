import { type Kysely, sql } from 'kysely'
import type { Schema } from './schema.ts'

/** Requests of one organization on one UTC day. */
export interface UsageIncrement {
  organizationId: string
  /** `YYYY-MM-DD`, UTC. */
  day: string
  requests: number
}

/** Rows of one statement at most (three parameters a row; SQLite allows 32,766 a statement). */
const ROWS_PER_STATEMENT = 1000

/**
 * Adds each increment to its (organization, day) row, creating it at the increment: several
 * instances adding to the same row add up. One transaction for the batch.
 */
export async function addOrganizationUsage(
  db: Kysely<Schema>,
  increments: readonly UsageIncrement[],
): Promise<void> {
  if (increments.length === 0) return
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < increments.length; i += ROWS_PER_STATEMENT) {
      await trx
        .insertInto('organization_usage')
        .values(
          increments.slice(i, i + ROWS_PER_STATEMENT).map((increment) => ({
            organization_id: increment.organizationId,
            day: increment.day,
            requests: increment.requests,
          })),
        )
        .onConflict((conflict) =>
          conflict
            .columns(['organization_id', 'day'])
            .doUpdateSet({ requests: sql<number>`organization_usage.requests + excluded.requests` }),
        )
        .execute()
    }
  })
}

/** The organization's stored counts of the days `from`..`to` (inclusive, `YYYY-MM-DD`), by day. */
export async function readOrganizationUsage(
  db: Kysely<Schema>,
  organizationId: string,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('organization_usage')
    .select(['day', 'requests'])
    .where('organization_id', '=', organizationId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute()
  return new Map(rows.map((row) => [row.day, Number(row.requests)]))
}
