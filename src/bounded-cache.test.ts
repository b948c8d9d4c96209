import { describe, expect, it } from 'vitest'
import { createBoundedCache } from './bounded-cache.ts'

describe('bounded cache', () => {
  it('evicts the least recently used entries to stay within its budget', () => {
    const cache = createBoundedCache<string, string>(10)
    cache.set('a', 'A', 4)
    cache.set('b', 'B', 4)
    expect(cache.get('a')).toBe('A') // a is now the most recently used
    cache.set('c', 'C', 4) // 12 > 10: b, the least recently used, goes
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe('A')
    expect(cache.get('c')).toBe('C')
    expect(cache.used).toBe(8)
    expect(cache.size).toBe(2)
  })

  it('moves a read entry to the newest end only when it is not among the newest quarter', () => {
    const cache = createBoundedCache<string, number>(8)
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].entries()) cache.set(key, i, 1)
    // h and g are the two newest of eight: read, they keep their places (g before h); a, the
    // oldest, moves to the newest end. Oldest first: b c d e f g h a.
    expect([cache.get('h'), cache.get('g'), cache.get('a')]).toEqual([7, 6, 0])
    // Each insert evicts the oldest. (A read that misses moves nothing.)
    for (const key of ['p', 'q', 'r', 's', 't']) cache.set(key, 0, 1)
    expect([cache.get('b'), cache.get('c'), cache.get('d'), cache.get('e'), cache.get('f')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    // g goes before h, in the order they were placed; a, moved by its read, outlives both.
    cache.set('u', 0, 1)
    expect(cache.get('g')).toBeUndefined()
    cache.set('v', 0, 1)
    expect(cache.get('h')).toBeUndefined()
    expect(cache.get('a')).toBe(0)
    expect(cache.size).toBe(8)
  })

  it('replaces an entry and its size, and keeps nothing larger than the budget', () => {
    const cache = createBoundedCache<string, number>(10)
    cache.set('a', 1, 6)
    cache.set('a', 2, 3)
    expect(cache.get('a')).toBe(2)
    expect(cache.used).toBe(3)
    cache.set('huge', 3, 11)
    expect(cache.get('huge')).toBeUndefined()
    expect(cache.get('a')).toBe(2)
    cache.delete('a')
    expect(cache.used).toBe(0)
    expect(cache.size).toBe(0)
  })

  it('keeps nothing with a budget of 0, and refuses a budget that is not a whole number', () => {
    const off = createBoundedCache<string, number>(0)
    off.set('a', 1, 1)
    expect(off.get('a')).toBeUndefined()
    off.set('empty', 2, 0)
    expect(off.get('empty')).toBeUndefined()
    expect(off.size).toBe(0)
    const some = createBoundedCache<string, number>(10)
    some.set('a', 1, 3)
    some.set('b', 2, 4)
    some.clear()
    expect([some.size, some.used, some.get('a'), some.get('b')]).toEqual([0, 0, undefined, undefined])
    expect(() => createBoundedCache(-1)).toThrow(RangeError)
    expect(() => createBoundedCache(1.5)).toThrow(RangeError)
  })
})
