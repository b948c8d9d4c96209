import type { Kysely } from 'kysely'
import type { HealthBoard } from '../health.ts'
import type { Logger } from '../logger.ts'
import { updateKeysLastUsed } from '../store/api-keys.ts'
import type { Schema } from '../store/schema.ts'
import { classifyStoreError, createStoreFailureLog, isUnanswered } from '../store/store-errors.ts'

/**
 * Buffers API-key `last_used_at` times in memory and writes them in one batch every
 * `flushMs`, so a data request never waits on a database write.
 */
export interface KeyUsageRecorder {
  record(keyId: string, atMs: number): void
  flush(): Promise<void>
  close(): Promise<void>
}

/**
 * A failed flush keeps its times for the next one and reports `store_writes` to `health` with the
 * cause (disk full, read-only, locked...); the next flush that writes clears it: the flush is the
 * process's steady writer, so its success is the sign writes work again. Repeated failures are
 * logged without a flood (`createStoreFailureLog`).
 */
export function createKeyUsageRecorder(
  db: Kysely<Schema>,
  logger: Logger,
  flushMs: number,
  health?: HealthBoard,
): KeyUsageRecorder {
  let pending = new Map<string, number>()
  let flushing: Promise<void> = Promise.resolve()
  const logStoreFailure = createStoreFailureLog()

  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (pending.size === 0) return
      const batch = pending
      pending = new Map()
      try {
        await updateKeysLastUsed(db, batch)
        health?.clear('store_writes')
      } catch (error) {
        // Keep the newest times for the next attempt rather than losing them.
        for (const [id, at] of batch) if ((pending.get(id) ?? 0) < at) pending.set(id, at)
        const found = classifyStoreError(error)
        if (found) {
          logStoreFailure(logger, found, error, 'could not record API key use')
          // An unreachable store is health's database probe's to report.
          if (!isUnanswered(found)) {
            health?.report('store_writes', found.code, `writes fail: ${found.message}`)
          }
        } else {
          logger.warn({ err: (error as Error).message }, 'could not record API key use')
        }
      }
    })
    return flushing
  }

  const timer = setInterval(() => void flush(), flushMs)
  timer.unref()

  return {
    record(keyId, atMs) {
      if ((pending.get(keyId) ?? 0) < atMs) pending.set(keyId, atMs)
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
  }
}
