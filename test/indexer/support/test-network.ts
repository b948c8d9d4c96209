import { StrKey } from '@stellar/stellar-sdk'
import type { ContractInfo, ContractKind, NetworkConfig } from '../../../src/chain/network.ts'

export const VAULT_CONTRACT = StrKey.encodeContract(Buffer.alloc(32, 1))
export const ORACLE_CONTRACT = StrKey.encodeContract(Buffer.alloc(32, 2))
export const XLM_CONTRACT = StrKey.encodeContract(Buffer.alloc(32, 5))

function contract(address: string, protocol: string, kind: ContractKind): ContractInfo {
  return {
    address,
    protocol,
    kind,
    name: protocol,
    version: '1',
    status: 'active',
    position_types: [],
    start_ledger: null,
  }
}

/** A hand-written network whose contracts the XDR builder's ledgers use. */
export const TEST_NETWORK: NetworkConfig = {
  name: 'test',
  passphrase: 'Strata test network',
  contracts: {
    vaultprotocol: contract(VAULT_CONTRACT, 'vaultprotocol', 'fxdao-vaults'),
    oracles: [contract(ORACLE_CONTRACT, 'oracle', 'reflector')],
    lendingprotocol: [],
    ammprotocol: [],
    yieldprotocol: [],
  },
  vaultprotocol: {
    collateral_asset: XLM_CONTRACT,
    denominations: { USD: { debt_asset: XLM_CONTRACT } },
  },
  ammprotocol: { pairs: {} },
  assets: {},
}
