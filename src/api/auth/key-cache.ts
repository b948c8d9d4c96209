import type { ApiKeyWithPlan } from '../../store/api-keys.ts'

/** A key record as read from the store, with the authentication generation it was read at. */
export interface CachedKey {
  key: ApiKeyWithPlan
  generation: string
}

/**
 * How long a presented key found to be no key is refused from memory at most, even while the
 * generation stays the one it was not found at: creating a key does not raise the generation (a
 * new key's secret is drawn at its creation, so no request can have presented it before), and
 * this bounds the one case it misses, a key row put back by hand with an old secret.
 */
export const UNKNOWN_KEY_TTL_MS = 10_000

/**
 * Key records of recently presented API keys, in this process's memory, keyed by the presented
 * key. A record is used only while the store's authentication generation is the one it was read
 * at (see `authenticate`), so the cache saves the key's checksum, HMAC and lookup without ever
 * answering from a stale record. Bounded: the oldest entry goes when it is full.
 *
 * Well-formed keys the store does not know are remembered apart (so that presenting many cannot
 * push out the records of keys in use), with the generation they were not found at: presented
 * again while the generation is unchanged, within `UNKNOWN_KEY_TTL_MS`, such a key is refused
 * without its lookup, so it costs the request's one statement and nothing more.
 */
export interface KeyRecordCache {
  get(presented: string): CachedKey | undefined
  set(presented: string, entry: CachedKey): void
  /** Whether `presented` was found to be no key at `generation`, less than `UNKNOWN_KEY_TTL_MS` before `now`. */
  isUnknown(presented: string, generation: string, now: number): boolean
  /** Records that no key had `presented`'s hash at `generation` (forgetting any record of it). */
  setUnknown(presented: string, generation: string, now: number): void
  readonly size: number
  /** Unknown keys remembered. */
  readonly unknownSize: number
}

/** A bounded map that drops its oldest entry when full. */
function boundedMap<V>(capacity: number) {
  const entries = new Map<string, V>()
  return {
    entries,
    set(key: string, value: V) {
      entries.delete(key)
      if (entries.size >= capacity) {
        const oldest = entries.keys().next()
        if (!oldest.done) entries.delete(oldest.value)
      }
      entries.set(key, value)
    },
  }
}

export function createKeyRecordCache(capacity = 10_000, unknownCapacity = 10_000): KeyRecordCache {
  const known = boundedMap<CachedKey>(capacity)
  const unknown = boundedMap<{ generation: string; at: number }>(unknownCapacity)
  return {
    get: (presented) => known.entries.get(presented),
    set(presented, entry) {
      unknown.entries.delete(presented)
      known.set(presented, entry)
    },
    isUnknown(presented, generation, now) {
      const entry = unknown.entries.get(presented)
      if (entry === undefined) return false
      if (entry.generation === generation && now - entry.at < UNKNOWN_KEY_TTL_MS) return true
      unknown.entries.delete(presented)
      return false
    },
    setUnknown(presented, generation, now) {
      known.entries.delete(presented)
      unknown.set(presented, { generation, at: now })
    },
    get size() {
      return known.entries.size
    },
    get unknownSize() {
      return unknown.entries.size
    },
  }
}
