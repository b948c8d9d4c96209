import pg from 'pg'
import { quoteIdent } from '../../../src/store/db.ts'
import { TEST_POSTGRES_URL } from '../../support/database.ts'

/**
 * A connection of the test's own to the shared PostgreSQL, straight (never through a proxy), to
 * watch and hurt what a test's indexers do in their schema.
 */
export interface PgAdmin {
  /** The backend pid holding the indexer lock of `schema`, or null when none holds it. */
  lockHolder(): Promise<number | null>
  /** Ends that backend as a restart or an idle-connection reaper would (pg_terminate_backend). */
  terminate(pid: number): Promise<void>
  /** The schema's checkpoint (indexer_state), or null before the first batch. */
  checkpoint(): Promise<number | null>
  /** The stored ledger sequences, ascending. */
  ledgers(): Promise<number[]>
  close(): Promise<void>
}

export async function connectPgAdmin(schema: string): Promise<PgAdmin> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
  await client.connect()
  const table = (name: string) => `${quoteIdent(schema)}.${name}`
  return {
    async lockHolder() {
      // A bigint advisory key is stored as classid (high 32 bits) and objid (low 32 bits).
      const result = await client.query<{ pid: number }>(
        `SELECT l.pid FROM pg_locks l
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext('strata-indexer:' || $1)::bigint`,
        [schema],
      )
      return result.rows[0]?.pid ?? null
    },
    async terminate(pid) {
      await client.query('SELECT pg_terminate_backend($1)', [pid])
    },
    async checkpoint() {
      const result = await client.query<{ last_ledger: string }>(
        `SELECT last_ledger FROM ${table('indexer_state')} WHERE name = 'ledgers'`,
      )
      return result.rows[0] === undefined ? null : Number(result.rows[0].last_ledger)
    },
    async ledgers() {
      const result = await client.query<{ sequence: string }>(
        `SELECT sequence FROM ${table('ledgers')} ORDER BY sequence`,
      )
      return result.rows.map((row) => Number(row.sequence))
    },
    close: () => client.end(),
  }
}

/** Resolves once `check` holds, polling; rejects with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
