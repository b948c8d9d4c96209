import pg from 'pg'
import { sleep } from '../chain/rpc-client.ts'
import type { Logger } from '../logger.ts'
import type { Database } from '../store/db.ts'

export const LOCK_POLL_INTERVAL_MS = 2000

/** Held while this process is the one indexer writing to the store. */
export interface IndexerLock {
  /** Aborted if the lock's connection is lost: another indexer may then take over. */
  lost: AbortSignal
  release(): Promise<void>
}

/**
 * On PostgreSQL, a session advisory lock on a dedicated connection: a second indexer waits here as
 * a hot standby and takes over when the first one's connection ends. The key includes the schema,
 * so separate schemas in one database index independently. SQLite is embedded in one process and
 * needs none; the checkpoint check in the writer still refuses a second writer.
 */
export async function acquireIndexerLock(
  database: Database,
  logger: Logger,
  signal?: AbortSignal,
): Promise<IndexerLock> {
  const lost = new AbortController()
  if (database.kind === 'sqlite') return { lost: lost.signal, release: async () => {} }
  const client = new pg.Client(database.pool.options)
  client.on('error', (error) => lost.abort(error))
  client.on('end', () => lost.abort(new Error('indexer lock connection ended')))
  await client.connect()
  let waiting = false
  try {
    while (true) {
      const result = await client.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock(hashtext('strata-indexer:' || current_schema())) AS locked",
      )
      if (result.rows[0]?.locked) break
      if (!waiting) logger.info('another indexer holds the lock; waiting as standby')
      waiting = true
      await sleep(LOCK_POLL_INTERVAL_MS, signal)
    }
  } catch (error) {
    await client.end().catch(() => {})
    throw error
  }
  if (waiting) logger.info('indexer lock acquired')
  return {
    lost: lost.signal,
    release: async () => {
      client.removeAllListeners('end')
      await client.end().catch(() => {})
    },
  }
}
