import { createHash } from 'node:crypto'

/**
 * A small seeded generator (xoshiro128**): fast, 32-bit integer only, and identical on every
 * platform, so one seed always yields the same world.
 */
export interface Rng {
  /** Uniform integer in [0, 2^32). */
  nextU32(): number
  /** Uniform float in [0, 1). */
  nextFloat(): number
  /** Uniform integer in [0, n) for 0 < n <= 2^32. */
  nextInt(n: number): number
  /** Uniform integer in [min, max]. */
  nextRange(min: number, max: number): number
  /** True with probability p. */
  chance(p: number): boolean
}

export function createRng(seed: string): Rng {
  const digest = createHash('sha256').update(`strata-devnet-rng:${seed}`).digest()
  let a = digest.readUInt32LE(0)
  let b = digest.readUInt32LE(4)
  let c = digest.readUInt32LE(8)
  let d = digest.readUInt32LE(12)
  // xoshiro must not start from the all-zero state.
  if ((a | b | c | d) === 0) a = 1

  const nextU32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0
    const t = b << 9
    c ^= a
    d ^= b
    b ^= c
    a ^= d
    c ^= t
    d = rotl(d, 11)
    return result
  }
  const nextFloat = (): number => nextU32() / 4294967296
  const nextInt = (n: number): number => Math.floor(nextFloat() * n)
  return {
    nextU32,
    nextFloat,
    nextInt,
    nextRange: (min, max) => min + nextInt(max - min + 1),
    chance: (p) => nextFloat() < p,
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k))
}
