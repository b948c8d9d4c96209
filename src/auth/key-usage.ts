import type { Kysely } from 'kysely'
import type { Logger } from '../logger.ts'
import { updateKeysLastUsed } from '../store/api-keys.ts'
import type { Schema } from '../store/schema.ts'

/**
 * Buffers API-key `last_used_at` times in memory and writes them in one batch every
 * `flushMs`, so a data request never waits on a database write.
 */
export interface KeyUsageRecorder {
  record(keyId: string, atMs: number): void
  flush(): Promise<void>
  close(): Promise<void>
}

export function createKeyUsageRecorder(
  db: Kysely<Schema>,
  logger: Logger,
  flushMs: number,
): KeyUsageRecorder {
  let pending = new Map<string, number>()
  let flushing: Promise<void> = Promise.resolve()

  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (pending.size === 0) return
      const batch = pending
      pending = new Map()
      try {
        await updateKeysLastUsed(db, batch)
      } catch (error) {
        // Keep the newest times for the next attempt rather than losing them.
        for (const [id, at] of batch) if ((pending.get(id) ?? 0) < at) pending.set(id, at)
        logger.warn({ err: (error as Error).message }, 'could not record API key use')
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
