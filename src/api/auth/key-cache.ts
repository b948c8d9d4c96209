import type { ApiKeyWithPlan } from '../../store/api-keys.ts'

/** A key record as read from the store, with the authentication generation it was read at. */
export interface CachedKey {
  key: ApiKeyWithPlan
  generation: string
}

/**
 * Key records of recently presented API keys, in this process's memory, keyed by the presented
 * key. A record is used only while the store's authentication generation is the one it was read
 * at (see `authenticate`), so the cache saves the key's checksum, HMAC and lookup without ever
 * answering from a stale record. Bounded: the oldest entry goes when it is full.
 */
export interface KeyRecordCache {
  get(presented: string): CachedKey | undefined
  set(presented: string, entry: CachedKey): void
  readonly size: number
}

export function createKeyRecordCache(capacity = 10_000): KeyRecordCache {
  const entries = new Map<string, CachedKey>()
  return {
    get: (presented) => entries.get(presented),
    set(presented, entry) {
      entries.delete(presented)
      if (entries.size >= capacity) {
        const oldest = entries.keys().next()
        if (!oldest.done) entries.delete(oldest.value)
      }
      entries.set(presented, entry)
    },
    get size() {
      return entries.size
    },
  }
}
