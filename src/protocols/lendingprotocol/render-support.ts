import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { formatUnits } from '../../positions/amounts.ts'
import type { Priced } from '../../positions/valuation.ts'
import type { PositionsReader, StateRow } from '../../store/positions-read.ts'
import type { ContractObject, Enrichment } from '../protocol-module.ts'
import type { PoolReader } from './reserves.ts'

/** Contract-state reads for one answer, each asked once. */
export function createCachedPoolReader(reader: PositionsReader): PoolReader {
  const cache = new Map<string, Promise<StateRow | null>>()
  return {
    stateAt(contract, key, ledger) {
      const id = `${contract}\u0000${key}\u0000${ledger}`
      let found = cache.get(id)
      if (!found) {
        found = reader.stateAt(contract, key, ledger)
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

/**
 * Adds an asset to the enrichment once, with the price the answer used for it; `decimals` are the
 * reserve's own when the network description does not list the asset.
 */
export function addAsset(
  enrichment: Enrichment,
  network: NetworkConfig,
  asset: string,
  priced: Priced,
  decimals: number,
): void {
  if (enrichment.assets[asset]) return
  const info = network.assets[asset]
  enrichment.assets[asset] = {
    decimals: info?.decimals ?? decimals,
    price_source: priced.row ? priced.feed : null,
    price_usd: priced.problem === 'price_missing' ? null : formatUnits(priced.price, priced.decimals),
    symbol: info?.symbol ?? asset,
    tags: info?.tags ?? [],
  }
}
