import { createRng } from '../world/prng.ts'

/** Deliberate transport failures, so clients can be tested on retries. The data never changes. */
export type FaultKind = 'http-500' | 'timeout' | 'truncated' | 'rate-limited'

export const FAULT_KINDS: readonly FaultKind[] = ['http-500', 'timeout', 'truncated', 'rate-limited']

export interface FaultPlan {
  /** The fault for the next JSON-RPC call, or null to answer it normally. */
  nextFault(): FaultKind | null
}

/** Seeded: the same seed and rate fail the same calls, in arrival order. */
export function createFaultPlan(seed: string, rate: number): FaultPlan {
  const rng = createRng(`${seed}:faults`)
  return {
    nextFault: () => {
      if (rate <= 0) return null
      const roll = rng.nextFloat()
      const kind = rng.nextInt(FAULT_KINDS.length)
      return roll < rate ? FAULT_KINDS[kind]! : null
    },
  }
}
