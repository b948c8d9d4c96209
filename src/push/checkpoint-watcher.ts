import type { Logger } from '../logger.ts'
import type { IndexerHead, PositionsReader } from '../store/positions-read.ts'

/**
 * One watcher of the indexer's checkpoint per process, however many streams are open: it reads
 * the checkpoint every `intervalMs` while anyone listens (and not at all otherwise) and tells
 * every listener when it moved. Reading is the one way that works wherever the indexer runs (in
 * this process with `serve`, or in another with `strata index`): the read is the request's own
 * one-row statement, and on SQLite a read with nothing committed since costs no statement.
 */
export interface CheckpointWatcher {
  /** Calls `listener` with each new checkpoint until the returned function is called. */
  subscribe(listener: (head: IndexerHead) => void): () => void
  /** Reads the checkpoint now (a commit is known to have happened), when anyone listens. */
  poke(): void
  /** The last checkpoint read (null before the first read). */
  latest(): IndexerHead | null
  /** Stops reading; listeners are dropped. */
  close(): void
}

export function createCheckpointWatcher(
  reader: PositionsReader,
  intervalMs: number,
  logger: Logger,
): CheckpointWatcher {
  const listeners = new Set<(head: IndexerHead) => void>()
  let last: IndexerHead | null = null
  let timer: NodeJS.Timeout | null = null
  let reading = false
  let failing = false

  const tick = async () => {
    if (reading) return
    reading = true
    try {
      const head = await reader.head()
      if (failing) logger.info('stream: the checkpoint can be read again')
      failing = false
      if (head.lastIndexedLedger !== last?.lastIndexedLedger) {
        last = head
        for (const listener of [...listeners]) listener(head)
      }
    } catch (error) {
      // The store out of reach: streams wait (their heartbeats go on) and catch up once it answers.
      if (!failing) logger.warn({ err: error }, 'stream: the checkpoint cannot be read; retrying')
      failing = true
    } finally {
      reading = false
    }
  }

  const stop = () => {
    if (timer !== null) clearInterval(timer)
    timer = null
  }

  return {
    subscribe(listener) {
      listeners.add(listener)
      if (timer === null) {
        timer = setInterval(() => void tick(), intervalMs)
        timer.unref()
      }
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) {
          stop()
          // The next subscriber reads afresh: a checkpoint seen while nobody listened is no news to it.
          last = null
        }
      }
    },
    poke() {
      if (listeners.size > 0) void tick()
    },
    latest: () => last,
    close() {
      listeners.clear()
      stop()
    },
  }
}
