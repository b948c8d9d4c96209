import type { ContractInfo } from '../../chain/network.ts'
import type { ContractObject, PositionsReader, StateRow } from '../kit/protocol-module.ts'
import type { PoolReader } from './reserves.ts'

/** Contract-state reads for one answer, each asked once. */
export function createCachedPoolReader(reader: PositionsReader): PoolReader {
  const cache = new Map<string, Promise<StateRow | null>>()
  return {
    stateAt(contract, key, ledger) {
      const id = `${contract}\u0000${key}\u0000${ledger}`
      let found = cache.get(id)
      if (!found) {
        found = Promise.resolve(reader.stateAt(contract, key, ledger))
        cache.set(id, found)
      }
      return found
    },
  }
}

export function lendingContractObject(c: ContractInfo): ContractObject {
  return {
    name: c.name,
    position_types: c.position_types,
    protocol: c.protocol,
    status: c.status,
    version: c.version,
  }
}

/** Latest JavaScript date, in epoch seconds (ECMA-262: ±8.64 × 10^15 ms). */
const MAX_DATE_S = 8_640_000_000_000n

/** Epoch seconds as an RFC 3339 timestamp in UTC; null beyond what a date can hold (a u64 far in the future). */
export function isoFromEpochS(seconds: bigint): string | null {
  if (seconds < 0n || seconds > MAX_DATE_S) return null
  return new Date(Number(seconds) * 1000).toISOString()
}
