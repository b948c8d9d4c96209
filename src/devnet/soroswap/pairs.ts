import { StrKey } from '@stellar/stellar-sdk'
import type { ContractInfo, NetworkConfig } from '../../chain/network.ts'
import { deriveSoroswapPairId, sortSoroswapTokens } from '../../chain/soroswap-address.ts'
import type { DevnetIdentities } from '../world/identities.ts'

/**
 * The devnet's Soroswap pairs and the tokens they pair. Each pair's address is the one the devnet's
 * factory deploys for its tokens (src/chain/soroswap-address.ts), exactly as mainnet derives it.
 */

export type TokenName = 'XLM' | 'USDC' | 'EURC' | 'USDx' | 'EURx' | 'GBPx'

export interface DevnetToken {
  name: TokenName
  contract: Uint8Array
  /** What the asset contract's `symbol()` answers: `native` for XLM, else the asset code. */
  sacSymbol: string
  /** SEP-11 name in the SAC's events: `native` or `CODE:ISSUER`. */
  assetName: string
}

export interface SoroswapPairSpec {
  a: TokenName
  b: TokenName
  /** USD value of each side of the first deposit; 0: created empty, first funded by an account. */
  depthUsd: number
}

/** XLM against the stablecoins, stablecoins against each other, and one pair created empty. */
export const SOROSWAP_PAIR_SPECS: SoroswapPairSpec[] = [
  { a: 'XLM', b: 'USDC', depthUsd: 1_000_000 },
  { a: 'XLM', b: 'EURC', depthUsd: 300_000 },
  { a: 'USDC', b: 'EURC', depthUsd: 400_000 },
  { a: 'USDC', b: 'USDx', depthUsd: 200_000 },
  { a: 'EURC', b: 'EURx', depthUsd: 150_000 },
  { a: 'XLM', b: 'GBPx', depthUsd: 0 },
]

export function listDevnetTokens(ids: DevnetIdentities): Record<TokenName, DevnetToken> {
  const stableIssuer = StrKey.encodeEd25519PublicKey(ids.stableIssuer)
  const token = (name: TokenName, contract: Uint8Array, issuer: string | null): DevnetToken => ({
    name,
    contract,
    sacSymbol: issuer === null ? 'native' : name,
    assetName: issuer === null ? 'native' : `${name}:${issuer}`,
  })
  return {
    XLM: token('XLM', ids.xlmContract, null),
    USDC: token('USDC', ids.usdcContract, ids.usdcIssuerAddress),
    EURC: token('EURC', ids.eurcContract, ids.eurcIssuerAddress),
    USDx: token('USDx', ids.debtContracts[0]!, stableIssuer),
    EURx: token('EURx', ids.debtContracts[1]!, stableIssuer),
    GBPx: token('GBPx', ids.debtContracts[2]!, stableIssuer),
  }
}

export interface DevnetPair {
  index: number
  id: Uint8Array
  spec: SoroswapPairSpec
  token0: DevnetToken
  token1: DevnetToken
  /** The LP token's metadata, as `initialize` builds it from the tokens' symbols (first 6 characters each). */
  name: string
  symbol: string
}

/** @param passphrase the devnet's network passphrase: it enters every contract ID the factory derives. */
export function listDevnetPairs(ids: DevnetIdentities, passphrase: string): DevnetPair[] {
  const tokens = listDevnetTokens(ids)
  return SOROSWAP_PAIR_SPECS.map((spec, index) => {
    const a = tokens[spec.a]
    const b = tokens[spec.b]
    const [first] = sortSoroswapTokens(a.contract, b.contract)
    const [token0, token1] = first === a.contract ? [a, b] : [b, a]
    const s0 = token0.sacSymbol.slice(0, 6)
    const s1 = token1.sacSymbol.slice(0, 6)
    return {
      index,
      id: deriveSoroswapPairId(passphrase, ids.soroswapFactory, a.contract, b.contract),
      spec,
      token0,
      token1,
      name: `${s0}-${s1} Soroswap LP Token`,
      symbol: `${s0}-${s1}-SOROSWAP-LP`,
    }
  })
}

/** The network description's Soroswap part: factory, router and pairs, all deployed in `startLedger`. */
export function buildSoroswapDescription(
  ids: DevnetIdentities,
  passphrase: string,
  startLedger: number,
): { contracts: ContractInfo[]; pairs: NetworkConfig['ammprotocol']['pairs'] } {
  const contract = (address: Uint8Array, kind: ContractInfo['kind'], name: string): ContractInfo => ({
    address: StrKey.encodeContract(address),
    protocol: 'ammprotocol',
    kind,
    name,
    version: '1',
    status: 'active',
    position_types: kind === 'soroswap-pair' ? ['liquidity'] : [],
    start_ledger: startLedger,
  })
  const pairs: NetworkConfig['ammprotocol']['pairs'] = {}
  const listed = listDevnetPairs(ids, passphrase).map((pair) => {
    const info = contract(
      pair.id,
      'soroswap-pair',
      `Soroswap ${pair.token0.name}/${pair.token1.name} (devnet)`,
    )
    pairs[info.address] = {
      token_0: StrKey.encodeContract(pair.token0.contract),
      token_1: StrKey.encodeContract(pair.token1.contract),
    }
    return info
  })
  return {
    contracts: [
      contract(ids.soroswapFactory, 'soroswap-factory', 'Soroswap Factory (devnet)'),
      contract(ids.soroswapRouter, 'soroswap-router', 'Soroswap Router (devnet)'),
      ...listed,
    ],
    pairs,
  }
}
