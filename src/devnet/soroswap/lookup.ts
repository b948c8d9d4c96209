import type { xdr } from '@stellar/stellar-sdk'
import { buildContractAddress, compareScVal, type ScVal } from '../ledger/scval.ts'
import { buildPairAddressesByTokensKey } from './layout.ts'
import {
  buildFactoryInstanceEntry,
  buildLpBalanceEntry,
  buildPairInstanceEntry,
  buildPairRegistryEntries,
  buildPairWasmHashLedgerEntry,
  buildRouterInstanceEntry,
  buildSacBalanceEntry,
  PAIR_HOLDER,
  type PairState,
  type SoroswapState,
} from './state.ts'

/**
 * `getLedgerEntries` for Soroswap: the factory's instance, `PairWasmHash` and registry entries, the
 * router's instance, each pair's instance and LP `Balance` entries, and the pairs' and the
 * aggregator's balances in the asset contracts, as last written. Nothing is archived, so every
 * written entry is live. Undefined: the contract is none of these (someone else answers).
 */
export function lookupSoroswapEntry(
  s: SoroswapState,
  contract: Uint8Array,
  key: ScVal,
  durability: number,
  accountOf: (v: ScVal) => number | undefined,
): xdr.LedgerEntryWire | null | undefined {
  const id = Buffer.from(contract)
  const { ids } = s
  const isFactory = id.equals(ids.soroswapFactory)
  const isRouter = id.equals(ids.soroswapRouter)
  const pair = s.pairs.find((p) => id.equals(p.pair.id))
  const token = Object.values(s.tokens).find((t) => id.equals(t.contract))
  if (!isFactory && !isRouter && !pair && !token) return undefined
  if (s.deployedAt === 0 || durability !== 1) return null
  const instance = key.type === 20
  if (isFactory) {
    if (instance) return buildFactoryInstanceEntry(s, s.factory)
    return lookupFactoryEntry(s, key)
  }
  if (isRouter) return instance ? buildRouterInstanceEntry(s) : null
  const parts = key.type === 16 ? (key.vec ?? []) : []
  const isBalance = parts.length === 2 && parts[0]?.type === 15 && parts[0].sym.toString() === 'Balance'
  const holder = isBalance ? parts[1]! : null
  if (pair) {
    if (instance) return buildPairInstanceEntry(s, pair)
    if (holder?.type !== 18) return null
    const holderId = holder.address.type === 1 ? Buffer.from(holder.address.contractId) : null
    const lpHolder = holderId?.equals(pair.pair.id) ? PAIR_HOLDER : accountOf(holder)
    return lpHolder === undefined ? null : buildLpBalanceEntry(s, pair, lpHolder)
  }
  // An asset contract: only contract holders have entries here, the pairs and the aggregator.
  if (holder?.type !== 18 || holder.address.type !== 1 || !token) return null
  const holderId = Buffer.from(holder.address.contractId)
  if (holderId.equals(ids.soroswapAggregator)) {
    return buildSacBalanceEntry(token, ids.soroswapAggregator, s.aggregator.get(token.name) ?? null)
  }
  const holding = s.pairs.find((p) => holderId.equals(p.pair.id))
  if (!holding) return null
  const side =
    holding.pair.token0.name === token.name
      ? holding.sac0
      : holding.pair.token1.name === token.name
        ? holding.sac1
        : null
  return buildSacBalanceEntry(token, holding.pair.id, side)
}

function lookupFactoryEntry(s: SoroswapState, key: ScVal): xdr.LedgerEntryWire | null {
  if (key.type !== 16 || key.vec?.[0]?.type !== 15) return null
  const tag = key.vec[0].sym.toString()
  if (tag === 'PairWasmHash' && key.vec.length === 1) return buildPairWasmHashLedgerEntry(s)
  const arg = key.vec[1]
  if (key.vec.length !== 2 || !arg) return null
  let found: PairState | undefined
  if (tag === 'PairAddressesNIndexed' && arg.type === 3) {
    found = s.pairs.find((p) => p.exists && p.factoryIndex === arg.u32)
    return found ? buildPairRegistryEntries(s, found)[1]! : null
  }
  if (tag === 'PairAddressesByTokens') {
    // Only the sorted pair of tokens is a key the factory writes.
    found = s.pairs.find(
      (p) =>
        p.exists &&
        compareScVal(
          key,
          buildPairAddressesByTokensKey(
            buildContractAddress(p.pair.token0.contract),
            buildContractAddress(p.pair.token1.contract),
          ),
        ) === 0,
    )
    return found ? buildPairRegistryEntries(s, found)[0]! : null
  }
  return null
}
