/**
 * What an indexer needs to know about a network: which contracts to watch and what their assets
 * are. The devnet announces its own; a real network's comes from a JSON data file of this shape.
 */
export interface AssetInfo {
  /** Contract StrKey (C...) of the asset's Stellar asset contract, or an oracle symbol (EUR, GBP). */
  id: string
  symbol: string
  decimals: number
  tags: string[]
}

export interface ContractInfo {
  /** Contract StrKey (C...). */
  address: string
  protocol: string
  name: string
  version: string
  status: 'active' | 'paused' | 'deprecated'
  position_types: string[]
}

export interface NetworkConfig {
  name: string
  passphrase: string
  contracts: {
    vaultprotocol: ContractInfo
    oracle: ContractInfo
  }
  /** Vault protocol: denomination symbol -> debt token asset id, and the collateral asset id. */
  vaultprotocol: {
    collateral_asset: string
    denominations: Record<string, { debt_asset: string; price_asset: string | null }>
  }
  assets: Record<string, AssetInfo>
}
