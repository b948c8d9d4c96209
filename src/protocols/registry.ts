import type { ContractInfo, NetworkConfig } from '../chain/network.ts'
import { ammProtocol } from './ammprotocol/index.ts'
import type { ProtocolModule } from './kit/protocol-module.ts'
import { lendingProtocol } from './lendingprotocol/index.ts'
import { vaultProtocol } from './vaultprotocol/index.ts'
import { yieldProtocol } from './yieldprotocol/index.ts'

/** Every protocol Strata answers for, in the order the API lists them. Adding one is adding a line. */
export const PROTOCOLS: readonly ProtocolModule[] = [
  vaultProtocol,
  lendingProtocol,
  ammProtocol,
  yieldProtocol,
]

export function findProtocol(name: string): ProtocolModule | undefined {
  return PROTOCOLS.find((p) => p.name === name)
}

/** The contracts a network's protocol modules read (oracles are the pipeline's own). */
export function protocolContracts(network: NetworkConfig): ContractInfo[] {
  return PROTOCOLS.flatMap((p) => p.contracts(network))
}

/**
 * Every contract the indexer reads for a network: the registered modules' contracts and the oracle
 * feeds the pipeline prices with, each once (a contract two modules read is listed once).
 */
export function indexedContracts(network: NetworkConfig): ContractInfo[] {
  const byAddress = new Map<string, ContractInfo>()
  for (const c of [...protocolContracts(network), ...network.contracts.oracles]) {
    if (!byAddress.has(c.address)) byAddress.set(c.address, c)
  }
  return [...byAddress.values()]
}
