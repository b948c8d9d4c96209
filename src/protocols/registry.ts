import type { ContractInfo, NetworkConfig } from '../chain/network.ts'
import { lendingProtocol } from './lendingprotocol/index.ts'
import type { ProtocolModule } from './protocol-module.ts'
import { vaultProtocol } from './vaultprotocol/index.ts'
import { yieldProtocol } from './yieldprotocol/index.ts'

/** Every protocol Strata answers for, in the order the API lists them. Adding one is adding a line. */
export const PROTOCOLS: readonly ProtocolModule[] = [vaultProtocol, lendingProtocol, yieldProtocol]

export function findProtocol(name: string): ProtocolModule | undefined {
  return PROTOCOLS.find((p) => p.name === name)
}

/** The contracts a network's protocol modules read (oracles are the pipeline's own). */
export function protocolContracts(network: NetworkConfig): ContractInfo[] {
  return PROTOCOLS.flatMap((p) => p.contracts(network))
}
