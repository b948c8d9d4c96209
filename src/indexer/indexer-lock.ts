import pg from 'pg'
import type { Logger } from '../logger.ts'
import type { Database } from '../store/db.ts'

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
  const key = "hashtext('strata-indexer:' || current_schema())"
  let waiting = false
  // Ending the connection is the one way to interrupt a blocking pg_advisory_lock.
  const onAbort = () => void client.end().catch(() => {})
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const tried = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${key}) AS locked`)
    if (!tried.rows[0]?.locked) {
      waiting = true
      logger.info('another indexer holds the lock; waiting as standby')
      // Blocks until the holder's session ends, so a standby takes over at once.
      await client.query(`SELECT pg_advisory_lock(${key})`)
    }
  } catch (error) {
    await client.end().catch(() => {})
    throw signal?.aborted ? signal.reason : error
  } finally {
    signal?.removeEventListener('abort', onAbort)
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
