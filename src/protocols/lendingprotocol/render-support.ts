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
