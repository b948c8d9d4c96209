/**
 * What an indexer needs to know about a network: which contracts to watch, what they are, and what
 * their assets are. The devnet announces its own (`/network.json`); a real network's ships as a JSON
 * data file of this shape under `networks/` and is validated on load (`load-network.ts`).
 */

/** Where an asset's USD price comes from: one asset of one oracle feed, as that feed names it. */
export interface PriceFeedRef {
  /** The oracle contract (C...). */
  oracle: string
  /** The feed's own name for the asset: a contract StrKey (Reflector `Asset::Stellar`) or a symbol (`Asset::Other`). */
  asset: string
}

export interface AssetInfo {
  /** Contract StrKey (C...) of the asset's Stellar asset contract, or an oracle symbol (EUR, GBP). */
  id: string
  symbol: string
  decimals: number
  tags: string[]
  /**
   * The feed that prices it in USD; null or absent when no watched feed does. A stablecoin of
   * another currency names that currency's feed (FxDAO's EURx: the forex feed's `EUR`).
   */
  price_feed?: PriceFeedRef | null
  /**
   * The currency the asset is worth exactly one unit of, by the description's declaration alone
   * (FxDAO's USDx: `USD`), for an asset no feed prices. Never inferred from a symbol or a tag; an
   * asset has a `price_feed` or a `price_peg`, not both.
   */
  price_peg?: PricePeg | null
}

/** The currencies an asset may be declared pegged to: USD, the unit every USD value is in. */
export const PRICE_PEGS = ['USD'] as const
export type PricePeg = (typeof PRICE_PEGS)[number]

export type ContractStatus = 'active' | 'paused' | 'deprecated'

/** Every contract kind a description may name; each is read by exactly one protocol module. */
export const CONTRACT_KINDS = [
  'fxdao-vaults',
  'reflector',
  'blend-pool-v2',
  'soroswap-factory',
  'soroswap-router',
  'soroswap-pair',
  'defindex-vault',
  'defindex-strategy-blend',
] as const
export type ContractKind = (typeof CONTRACT_KINDS)[number]

export interface ContractInfo {
  /** Contract StrKey (C...). */
  address: string
  /** The API's protocol segment (`vaultprotocol`, `lendingprotocol`) or `oracle`. */
  protocol: string
  /** What the contract is, exactly: `fxdao-vaults`, `reflector`, `blend-pool-v2`, `soroswap-pair`... Decides how its storage is read. */
  kind: ContractKind
  name: string
  /** The deployed contract's version, e.g. FxDAO vaults `0.6.0`, Reflector `2` or `3`. */
  version: string
  status: ContractStatus
  position_types: string[]
  /** First ledger at which the contract existed, when known: coverage below it is complete by definition. */
  start_ledger: number | null
  /**
   * Lending pools only: reserve index -> asset contract, as known from outside the indexed history
   * (the pool's `ResList` is written when a reserve is added, which may predate the store). What
   * the indexed ledgers say (`ResList`) takes precedence.
   */
  reserves?: Record<string, string>
}

/** A DeFindex vault (`defindex-vault`) or Blend strategy (`defindex-strategy-blend`) and what it connects. */
export interface YieldContractInfo extends ContractInfo {
  /** Vaults: the asset ids they hold (keys of `assets`), in the vault's own order. */
  assets?: string[]
  /** Vaults: the addresses of their strategies (each listed under `yieldprotocol`). */
  strategies?: string[]
  /** Strategies: the lending pool they supply to (listed under `lendingprotocol`). */
  pool?: string
  /** Strategies: the asset they lend (a key of `assets`). */
  asset?: string
}

export interface NetworkConfig {
  name: string
  passphrase: string
  contracts: {
    vaultprotocol: ContractInfo
    /** Every oracle feed a price comes from. */
    oracles: ContractInfo[]
    /** Blend v2 lending pools (`blend-pool-v2`); their reserves, rates and oracle are read from the chain. */
    lendingprotocol: ContractInfo[]
    /** Soroswap: its factory (`soroswap-factory`), router (`soroswap-router`) and pairs (`soroswap-pair`). */
    ammprotocol: ContractInfo[]
    /** DeFindex vaults and their strategies. */
    yieldprotocol: YieldContractInfo[]
  }
  /**
   * Vault protocol: denomination symbol -> its debt token's asset id, and the collateral asset id.
   * A debt token is priced as every asset is, through its own entry in `assets`.
   */
  vaultprotocol: {
    collateral_asset: string
    denominations: Record<string, { debt_asset: string }>
  }
  /** Soroswap pairs: pair contract -> its two tokens, `token_0` < `token_1` in the factory's order. */
  ammprotocol: {
    pairs: Record<string, { token_0: string; token_1: string }>
  }
  assets: Record<string, AssetInfo>
}
