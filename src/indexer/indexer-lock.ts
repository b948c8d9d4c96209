import type { Logger } from '../logger.ts'
import type { Database, WriterLock } from '../store/db.ts'

/** Held while this process is the one indexer writing to the store. */
export type IndexerLock = WriterLock

/**
 * Takes the store's writer lock (see `Database.acquireWriterLock`): on a store shared by processes a
 * second indexer waits here as a hot standby and takes over when the first one's connection ends.
 */
export async function acquireIndexerLock(
  database: Database,
  logger: Logger,
  signal?: AbortSignal,
  onWait?: () => void,
): Promise<IndexerLock> {
  let waited = false
  const lock = await database.acquireWriterLock(signal, () => {
    waited = true
    onWait?.()
    logger.info('another indexer holds the lock; waiting as standby')
  })
  if (waited) logger.info('indexer lock acquired')
  return lock
}
