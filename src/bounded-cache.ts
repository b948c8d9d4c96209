/**
 * A least-recently-used map bounded by a size budget: each entry states its own size (bytes of a
 * rendered answer, or 1 to count entries), and the least recently used entries go when an insert
 * would exceed the budget. An entry larger than the whole budget is not kept. A budget of 0 keeps
 * nothing, which is how a cache is switched off.
 *
 * Recency is kept as the map's order, oldest first, and a read moves its entry to the newest end,
 * unless the entry is already among the newest quarter of the entries (placed there by an insert
 * or a move fewer than size / 4 placements ago): those are the farthest from eviction, and leaving
 * them in place spares the map a delete and an insert on most reads of a hot entry. So eviction
 * takes the entries read least recently, except that entries read while among the newest quarter
 * keep the order they had there.
 */
export interface BoundedCache<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V, size: number): void
  delete(key: K): void
  clear(): void
  /** Entries held. */
  readonly size: number
  /** Sum of the held entries' sizes. */
  readonly used: number
  readonly budget: number
}

export function createBoundedCache<K, V>(budget: number): BoundedCache<K, V> {
  if (!Number.isSafeInteger(budget) || budget < 0) throw new RangeError('budget must be a whole number >= 0')
  const entries = new Map<K, { value: V; size: number; placed: number }>()
  let used = 0
  /** Placements at the newest end so far (inserts and moves); an entry records its own. */
  let placements = 0
  const drop = (key: K) => {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    used -= entry.size
  }
  return {
    get(key) {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      // Map keeps insertion order: re-inserting marks the entry most recently used.
      if (placements - entry.placed > entries.size >>> 2) {
        entries.delete(key)
        entries.set(key, entry)
        entry.placed = ++placements
      }
      return entry.value
    },
    set(key, value, size) {
      drop(key)
      if (budget === 0 || size > budget) return
      while (used + size > budget) {
        const oldest = entries.keys().next()
        if (oldest.done) break
        drop(oldest.value)
      }
      entries.set(key, { value, size, placed: ++placements })
      used += size
    },
    delete: drop,
    clear() {
      entries.clear()
      used = 0
    },
    get size() {
      return entries.size
    },
    get used() {
      return used
    },
    budget,
  }
}
