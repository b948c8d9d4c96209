import { createHash } from 'node:crypto'
import { StrKey } from '@stellar/stellar-sdk'
import type { NetworkConfig } from '../../chain/network.ts'
import { buildSoroswapDescription } from '../soroswap/pairs.ts'

/**
 * A devnet's passphrase names its seed: two devnets are two networks (their transaction hashes
 * differ, and a store filled from one refuses the other), and none collides with a real network.
 */
export function devnetPassphrase(seed: string): string {
  return `Strata Devnet ; seed ${seed}`
}

export const DENOMINATIONS = ['USD', 'EUR', 'GBP'] as const
/** The devnet's Blend v2 pools, as the network description names them. */
export const BLEND_POOL_NAMES = ['Blend Devnet Fixed (v2)', 'Blend Devnet YieldBlox (v2)'] as const
export type Denomination = (typeof DENOMINATIONS)[number]

// DeFindex (yield protocol): one single-asset vault per asset, each with one Blend strategy lending
// into the matching reserve of the devnet's Fixed pool, as mainnet's Fixed-pool strategies do.
export const DEFINDEX_VAULTS = [
  { name: 'Devnet USDC', symbol: 'dvUSDC', asset: 'USDC', reserve: 1, strategyName: 'USDC Blend Fixed' },
  { name: 'Devnet EURC', symbol: 'dvEURC', asset: 'EURC', reserve: 2, strategyName: 'EURC Blend Fixed' },
  { name: 'Devnet XLM', symbol: 'dvXLM', asset: 'XLM', reserve: 0, strategyName: 'XLM Blend Fixed' },
] as const

/** Every key of the simulated world, derived from the seed so a seed names one world. */
export interface DevnetIdentities {
  seed: string
  vaultContract: Uint8Array
  oracleContract: Uint8Array
  /** The native XLM Stellar asset contract: the vault protocol's collateral. */
  xlmContract: Uint8Array
  /** Debt token asset contracts, indexed like DENOMINATIONS. */
  debtContracts: Uint8Array[]
  oracleAdmin: Uint8Array
  liquidator: Uint8Array
  /** Redeems stablecoins against the riskiest vault now and then. */
  redeemer: Uint8Array
  /** Issuer account of the USDx/EURx/GBPx classic assets behind the debt token contracts. */
  stableIssuer: Uint8Array
  /** FxDAO's treasury account: receives the fees. */
  treasury: Uint8Array
  /** Wasm hashes of the deployed contracts (their instance entries' executables). */
  vaultWasm: Uint8Array
  oracleWasm: Uint8Array
  /** The USDC and EURC Stellar asset contracts (Blend reserves) and their classic issuers' G... addresses. */
  usdcContract: Uint8Array
  eurcContract: Uint8Array
  usdcIssuerAddress: string
  eurcIssuerAddress: string
  /** The two Blend v2 lending pools, their admin, backstop, BLND token and wasm hash. */
  blendPools: Uint8Array[]
  blendAdmin: Uint8Array
  /** Opens and fills the pools' liquidation auctions (holds a large collateral buffer in each pool). */
  blendLiquidator: Uint8Array
  blendBackstop: Uint8Array
  blndContract: Uint8Array
  /** Issuer of the classic BLND asset behind its asset contract. */
  blndIssuerAddress: string
  blendPoolWasm: Uint8Array
  /** Soroswap: factory, router, their wasm hashes and the pairs' (the factory's `PairWasmHash`). */
  soroswapFactory: Uint8Array
  soroswapRouter: Uint8Array
  soroswapFactoryWasm: Uint8Array
  soroswapRouterWasm: Uint8Array
  soroswapPairWasm: Uint8Array
  /** A swap aggregator that calls pairs directly, as the one in mainnet ledger 63092990 does. */
  soroswapAggregator: Uint8Array
  /** The factory's `fee_to_setter` (and `fee_to`): initializes it and creates the pairs. */
  soroswapSetter: Uint8Array
  /** Seeds the pairs' first liquidity. */
  soroswapSeeder: Uint8Array
  /** DeFindex vaults and their Blend strategies (indexed like DEFINDEX_VAULTS), their roles and wasm hashes. */
  defindexVaults: Uint8Array[]
  defindexStrategies: Uint8Array[]
  /** Manager, emergency manager, rebalance manager and vault fee receiver of every vault (as on mainnet, one account). */
  defindexManager: Uint8Array
  defindexKeeper: Uint8Array
  defindexProtocolFeeReceiver: Uint8Array
  /** The Soroswap router the vaults and strategies are configured with (the devnet's; they never call it). */
  defindexRouter: Uint8Array
  defindexVaultWasm: Uint8Array
  defindexStrategyWasm: Uint8Array
  /** Public key of simulated account i (cached; 32 bytes). */
  accountKey(index: number): Uint8Array
  /** G... address of simulated account i. */
  accountAddress(index: number): string
}

export function deriveKey(seed: string, label: string): Uint8Array {
  return createHash('sha256').update(`strata-devnet:${seed}:${label}`).digest()
}

export function createIdentities(seed: string): DevnetIdentities {
  const keys = new Map<number, Uint8Array>()
  const accountKey = (index: number): Uint8Array => {
    let key = keys.get(index)
    if (!key) {
      key = deriveKey(seed, `account:${index}`)
      keys.set(index, key)
    }
    return key
  }
  return {
    seed,
    vaultContract: deriveKey(seed, 'contract:vaultprotocol'),
    oracleContract: deriveKey(seed, 'contract:oracle'),
    xlmContract: deriveKey(seed, 'asset:XLM'),
    debtContracts: DENOMINATIONS.map((d) => deriveKey(seed, `asset:${d}x`)),
    oracleAdmin: deriveKey(seed, 'account:oracle-admin'),
    liquidator: deriveKey(seed, 'account:liquidator'),
    redeemer: deriveKey(seed, 'account:redeemer'),
    stableIssuer: deriveKey(seed, 'account:stable-issuer'),
    treasury: deriveKey(seed, 'account:treasury'),
    vaultWasm: deriveKey(seed, 'wasm:fxdao-vaults-0.6.0'),
    oracleWasm: deriveKey(seed, 'wasm:reflector'),
    usdcContract: deriveKey(seed, 'asset:USDC'),
    eurcContract: deriveKey(seed, 'asset:EURC'),
    usdcIssuerAddress: StrKey.encodeEd25519PublicKey(deriveKey(seed, 'account:usdc-issuer')),
    eurcIssuerAddress: StrKey.encodeEd25519PublicKey(deriveKey(seed, 'account:eurc-issuer')),
    blendPools: BLEND_POOL_NAMES.map((_, i) => deriveKey(seed, `contract:blend-pool:${i}`)),
    blendAdmin: deriveKey(seed, 'account:blend-admin'),
    blendLiquidator: deriveKey(seed, 'account:blend-liquidator'),
    blendBackstop: deriveKey(seed, 'contract:blend-backstop'),
    blndContract: deriveKey(seed, 'asset:BLND'),
    blndIssuerAddress: StrKey.encodeEd25519PublicKey(deriveKey(seed, 'account:blnd-issuer')),
    blendPoolWasm: deriveKey(seed, 'wasm:blend-pool-v2'),
    soroswapFactory: deriveKey(seed, 'contract:soroswap-factory'),
    soroswapRouter: deriveKey(seed, 'contract:soroswap-router'),
    soroswapFactoryWasm: deriveKey(seed, 'wasm:soroswap-factory'),
    soroswapRouterWasm: deriveKey(seed, 'wasm:soroswap-router'),
    soroswapPairWasm: deriveKey(seed, 'wasm:soroswap-pair'),
    soroswapAggregator: deriveKey(seed, 'contract:swap-aggregator'),
    soroswapSetter: deriveKey(seed, 'account:soroswap-setter'),
    soroswapSeeder: deriveKey(seed, 'account:soroswap-seeder'),
    defindexVaults: DEFINDEX_VAULTS.map((_, i) => deriveKey(seed, `contract:defindex-vault:${i}`)),
    defindexStrategies: DEFINDEX_VAULTS.map((_, i) =>
      deriveKey(seed, `contract:defindex-blend-strategy:${i}`),
    ),
    defindexManager: deriveKey(seed, 'account:defindex-manager'),
    defindexKeeper: deriveKey(seed, 'account:defindex-keeper'),
    defindexProtocolFeeReceiver: deriveKey(seed, 'account:defindex-protocol-fee-receiver'),
    // The devnet's own Soroswap router, as mainnet's vaults name Soroswap's.
    defindexRouter: deriveKey(seed, 'contract:soroswap-router'),
    defindexVaultWasm: deriveKey(seed, 'wasm:defindex-vault'),
    defindexStrategyWasm: deriveKey(seed, 'wasm:defindex-blend-strategy'),
    accountKey,
    accountAddress: (index) => StrKey.encodeEd25519PublicKey(accountKey(index)),
  }
}

/** What the devnet announces so an indexer knows which contracts to watch and what their assets are. */
/** Its contracts are deployed in `startLedger`, the devnet's first ledger. */
/** `lending` false: the devnet runs without its Blend pools, and the description lists none. */
/** `amm` false: the devnet runs without Soroswap, and the description lists none of it. */
/** `yieldVaults` false: no DeFindex vaults (they need the pools, so never without `lending`). */
export function buildNetworkConfig(
  ids: DevnetIdentities,
  startLedger: number,
  lending = true,
  amm = true,
  yieldVaults = lending,
): NetworkConfig {
  const xlm = StrKey.encodeContract(ids.xlmContract)
  const oracle = StrKey.encodeContract(ids.oracleContract)
  const debt = ids.debtContracts.map((c) => StrKey.encodeContract(c))
  const denominations: NetworkConfig['vaultprotocol']['denominations'] = {}
  const assets: NetworkConfig['assets'] = {
    // The devnet's feed names XLM by its asset contract (Reflector `Asset::Stellar`).
    [xlm]: {
      id: xlm,
      symbol: 'XLM',
      decimals: 7,
      tags: ['native', 'collateral'],
      price_feed: { oracle, asset: xlm },
    },
  }
  DENOMINATIONS.forEach((denomination, i) => {
    const debtAsset = debt[i]!
    denominations[denomination] = { debt_asset: debtAsset }
    // Each stablecoin is priced as its currency: USDx at exactly one dollar by declaration (FxDAO's
    // USD denomination), EURx and GBPx through the oracle's forex quotes, named by their symbols.
    assets[debtAsset] = {
      id: debtAsset,
      symbol: `${denomination}x`,
      decimals: 7,
      tags: ['stablecoin', 'debt'],
      ...(denomination === 'USD'
        ? { price_peg: 'USD' as const }
        : { price_feed: { oracle, asset: denomination } }),
    }
  })
  // The feed quotes USDC and EURC by their asset contracts, as Blend reads them (`Asset::Stellar`).
  for (const [symbol, contract] of [
    ['USDC', ids.usdcContract],
    ['EURC', ids.eurcContract],
  ] as const) {
    const id = StrKey.encodeContract(contract)
    assets[id] = {
      id,
      symbol,
      decimals: 7,
      tags: ['stablecoin', 'collateral'],
      price_feed: { oracle, asset: id },
    }
  }
  const lendingprotocol: NetworkConfig['contracts']['lendingprotocol'] = lending
    ? BLEND_POOL_NAMES.map((name, i) => ({
        address: StrKey.encodeContract(ids.blendPools[i]!),
        protocol: 'lendingprotocol',
        kind: 'blend-pool-v2',
        name,
        version: '2',
        status: 'active',
        position_types: ['supply', 'collateral', 'borrow'],
        start_ledger: startLedger,
      }))
    : []
  // Soroswap: every pair pairs two assets described above (XLM, USDC, EURC, FxDAO's stablecoins).
  const soroswap = amm
    ? buildSoroswapDescription(ids, devnetPassphrase(ids.seed), startLedger)
    : { contracts: [], pairs: {} }
  return {
    name: `strata-devnet-${ids.seed}`,
    passphrase: devnetPassphrase(ids.seed),
    contracts: {
      vaultprotocol: {
        address: StrKey.encodeContract(ids.vaultContract),
        protocol: 'vaultprotocol',
        kind: 'fxdao-vaults',
        name: 'FxDAO Vaults (devnet)',
        version: '0.6.0',
        status: 'active',
        position_types: ['collateral', 'debt'],
        start_ledger: startLedger,
      },
      oracles: [
        {
          address: oracle,
          protocol: 'oracle',
          kind: 'reflector',
          name: 'Reflector (devnet)',
          version: '3',
          status: 'active',
          position_types: [],
          start_ledger: startLedger,
        },
      ],
      lendingprotocol,
      ammprotocol: soroswap.contracts,
      yieldprotocol: lending && yieldVaults ? buildYieldContracts(ids, startLedger) : [],
    },
    vaultprotocol: { collateral_asset: xlm, denominations },
    ammprotocol: { pairs: soroswap.pairs },
    assets,
  }
}

/** The DeFindex vaults and their Blend strategies (all lending into the Fixed pool), for the description. */
function buildYieldContracts(
  ids: DevnetIdentities,
  startLedger: number,
): NetworkConfig['contracts']['yieldprotocol'] {
  const assetIds = { USDC: ids.usdcContract, EURC: ids.eurcContract, XLM: ids.xlmContract }
  const pool = StrKey.encodeContract(ids.blendPools[0]!)
  return DEFINDEX_VAULTS.flatMap((spec, i) => {
    const asset = StrKey.encodeContract(assetIds[spec.asset])
    const strategy = StrKey.encodeContract(ids.defindexStrategies[i]!)
    const common = { protocol: 'yieldprotocol', status: 'active' as const, start_ledger: startLedger }
    return [
      {
        ...common,
        address: StrKey.encodeContract(ids.defindexVaults[i]!),
        kind: 'defindex-vault' as const,
        name: `DeFindex ${spec.name}`,
        version: '32c8169b',
        position_types: ['vault_share'],
        assets: [asset],
        strategies: [strategy],
      },
      {
        ...common,
        address: strategy,
        kind: 'defindex-strategy-blend' as const,
        name: spec.strategyName,
        version: '32c8169b',
        position_types: [],
        pool,
        asset,
      },
    ]
  })
}
