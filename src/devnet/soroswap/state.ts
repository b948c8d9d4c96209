import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry, buildInstanceEntry } from '../ledger/contract-layout.ts'
import { createSacEvents, type SacEvents } from '../ledger/sac-events.ts'
import { buildAccountAddress, buildAddressVal, buildContractAddress, buildI128 } from '../ledger/scval.ts'
import type { DevnetIdentities } from '../world/identities.ts'
import {
  buildFactoryInstanceStorage,
  buildLpBalanceKey,
  buildPairAddressesByTokensKey,
  buildPairAddressesNIndexedKey,
  buildPairInstanceStorage,
  buildPairWasmHashEntry,
  buildRouterInstanceStorage,
  buildSacBalanceKey,
  buildSacBalanceValue,
} from './layout.ts'
import type { DevnetPair, DevnetToken, TokenName } from './pairs.ts'

/**
 * What Soroswap's contracts hold on the devnet, and one transaction's draft of it: a transaction
 * works on copies of what it touches and is committed whole, or thrown away when the contract
 * panics (a failed transaction changes nothing). Each entry written is reported once, as a
 * `state`/`updated` pair or as `created`, in the order the transaction first wrote it.
 */

/** A balance entry (LP token or asset contract) and the ledger it was last written at. */
export interface BalanceEntry {
  amount: bigint
  modified: number
}

/** LP holders are accounts (their index; the seeder is `accounts`) or the pair itself. */
export const PAIR_HOLDER = -1

export interface PairState {
  pair: DevnetPair
  /** Deployed and initialized by the factory. */
  exists: boolean
  /** Position in the factory's `PairAddressesNIndexed`, and the ledger it was created at. */
  factoryIndex: number
  createdAt: number
  reserve0: bigint
  reserve1: bigint
  totalSupply: bigint | null
  instanceModified: number
  lp: Map<number, BalanceEntry>
  /** A transaction's draft only: its LP writes, applied to `lp` on commit (a pair may have thousands of holders). */
  lpWrites?: Map<number, BalanceEntry>
  /** The pair's own entries in token0's and token1's asset contracts (null: never held any). */
  sac0: BalanceEntry | null
  sac1: BalanceEntry | null
}

export interface FactoryState {
  totalPairs: number
  instanceModified: number
}

export interface SoroswapState {
  ids: DevnetIdentities
  accounts: number
  tokens: Record<TokenName, DevnetToken>
  sac: Record<TokenName, SacEvents>
  pairs: PairState[]
  factory: FactoryState
  /** The ledger the factory and router were deployed at (0 before). */
  deployedAt: number
  /** The aggregator's balances in the asset contracts: zero after each of its swaps. */
  aggregator: Map<TokenName, BalanceEntry>
}

export function createSoroswapState(
  ids: DevnetIdentities,
  accounts: number,
  tokens: Record<TokenName, DevnetToken>,
  pairs: DevnetPair[],
): SoroswapState {
  const sac = {} as Record<TokenName, SacEvents>
  for (const t of Object.values(tokens)) sac[t.name] = createSacEvents(t.contract, t.assetName)
  return {
    ids,
    accounts,
    tokens,
    sac,
    pairs: pairs.map((pair) => ({
      pair,
      exists: false,
      factoryIndex: -1,
      createdAt: 0,
      reserve0: 0n,
      reserve1: 0n,
      totalSupply: null,
      instanceModified: 0,
      lp: new Map(),
      sac0: null,
      sac1: null,
    })),
    factory: { totalPairs: 0, instanceModified: 0 },
    deployedAt: 0,
    aggregator: new Map(),
  }
}

/** A holder's LP entry as the view sees it: a draft's own write first. */
export function readLp(p: PairState, holder: number): BalanceEntry | undefined {
  return p.lpWrites?.get(holder) ?? p.lp.get(holder)
}

/** A holder's address: an account (the seeder after the population) or a pair. */
export function lpHolderAddress(s: SoroswapState, pair: PairState, holder: number): xdr.ScAddressWire {
  if (holder === PAIR_HOLDER) return buildContractAddress(pair.pair.id)
  return buildAccountAddress(holder === s.accounts ? s.ids.soroswapSeeder : s.ids.accountKey(holder))
}

/** The committed state or a transaction's drafts, as entry builders read them. */
export interface StateView {
  pair(index: number): PairState
  factory(): FactoryState
  aggregator(): Map<TokenName, BalanceEntry>
}

type EntryBuilder = (view: StateView) => xdr.LedgerEntryWire | null

// ---------------------------------------------------------------------------------------------
// Entries, built from a view

export function buildPairInstanceEntry(s: SoroswapState, p: PairState): xdr.LedgerEntryWire | null {
  if (!p.exists) return null
  const { id, token0, token1, name, symbol } = p.pair
  const storage = buildPairInstanceStorage({
    token0: buildContractAddress(token0.contract),
    token1: buildContractAddress(token1.contract),
    reserve0: p.reserve0,
    reserve1: p.reserve1,
    factory: buildContractAddress(s.ids.soroswapFactory),
    name,
    symbol,
    totalSupply: p.totalSupply,
  })
  return buildInstanceEntry(id, s.ids.soroswapPairWasm, storage, p.instanceModified)
}

export function buildLpBalanceEntry(s: SoroswapState, p: PairState, holder: number) {
  const e = readLp(p, holder)
  if (!e) return null
  const key = buildLpBalanceKey(lpHolderAddress(s, p, holder))
  return buildContractDataEntry(p.pair.id, key, buildI128(e.amount), e.modified)
}

/** A contract holder's entry in an asset contract. */
export function buildSacBalanceEntry(token: DevnetToken, holder: Uint8Array, e: BalanceEntry | null) {
  if (!e) return null
  const key = buildSacBalanceKey(buildContractAddress(holder))
  return buildContractDataEntry(token.contract, key, buildSacBalanceValue(e.amount), e.modified)
}

export function buildFactoryInstanceEntry(s: SoroswapState, f: FactoryState): xdr.LedgerEntryWire | null {
  if (s.deployedAt === 0) return null
  const setter = buildAccountAddress(s.ids.soroswapSetter)
  const storage = buildFactoryInstanceStorage({
    feeTo: setter,
    feeToSetter: setter,
    totalPairs: f.totalPairs,
  })
  return buildInstanceEntry(s.ids.soroswapFactory, s.ids.soroswapFactoryWasm, storage, f.instanceModified)
}

export function buildPairWasmHashLedgerEntry(s: SoroswapState): xdr.LedgerEntryWire {
  const [key, val] = buildPairWasmHashEntry(s.ids.soroswapPairWasm)
  return buildContractDataEntry(s.ids.soroswapFactory, key, val, s.deployedAt)
}

export function buildRouterInstanceEntry(s: SoroswapState): xdr.LedgerEntryWire {
  const storage = buildRouterInstanceStorage(buildContractAddress(s.ids.soroswapFactory))
  return buildInstanceEntry(s.ids.soroswapRouter, s.ids.soroswapRouterWasm, storage, s.deployedAt)
}

/** The factory's two registry entries of a pair, written once when it is created. */
export function buildPairRegistryEntries(s: SoroswapState, p: PairState): xdr.LedgerEntryWire[] {
  if (!p.exists) return []
  const pairAddress = buildAddressVal(buildContractAddress(p.pair.id))
  const byTokens = buildPairAddressesByTokensKey(
    buildContractAddress(p.pair.token0.contract),
    buildContractAddress(p.pair.token1.contract),
  )
  return [
    buildContractDataEntry(s.ids.soroswapFactory, byTokens, pairAddress, p.createdAt),
    buildContractDataEntry(
      s.ids.soroswapFactory,
      buildPairAddressesNIndexedKey(p.factoryIndex),
      pairAddress,
      p.createdAt,
    ),
  ]
}

// ---------------------------------------------------------------------------------------------
// One transaction

export interface SoroswapTx {
  sequence: number
  now: bigint
  events: xdr.ContractEventWire[]
  /** The transaction's copy of a pair (made on first use). */
  pair(index: number): PairState
  factory(): FactoryState
  aggregator(): Map<TokenName, BalanceEntry>
  /** Records that an entry is written by this transaction; reported once, in first-write order. */
  touch(id: string, build: EntryBuilder): void
  /** Applies the drafts to the state and returns the entry changes. */
  commit(): xdr.LedgerEntryChangeWire[]
}

export function createSoroswapTx(s: SoroswapState, sequence: number, now: bigint): SoroswapTx {
  const pairs = new Map<number, PairState>()
  let factory: FactoryState | null = null
  let aggregator: Map<TokenName, BalanceEntry> | null = null
  const written = new Map<string, EntryBuilder>()
  const committed: StateView = {
    pair: (i) => s.pairs[i]!,
    factory: () => s.factory,
    aggregator: () => s.aggregator,
  }
  const tx: SoroswapTx = {
    sequence,
    now,
    events: [],
    pair(i) {
      let draft = pairs.get(i)
      if (!draft) {
        const real = s.pairs[i]!
        draft = { ...real, lpWrites: new Map() }
        pairs.set(i, draft)
      }
      return draft
    },
    factory() {
      factory ??= { ...s.factory }
      return factory
    },
    aggregator() {
      aggregator ??= new Map(s.aggregator)
      return aggregator
    },
    touch(id, build) {
      if (!written.has(id)) written.set(id, build)
    },
    commit() {
      const builders = [...written.values()]
      const before = builders.map((build) => build(committed))
      for (const [i, { lpWrites, ...draft }] of pairs) {
        for (const [holder, entry] of lpWrites!) draft.lp.set(holder, entry)
        s.pairs[i] = draft
      }
      if (factory) s.factory = factory
      if (aggregator) s.aggregator = aggregator
      const changes: xdr.LedgerEntryChangeWire[] = []
      builders.forEach((build, k) => {
        const after = build(committed)!
        const prior = before[k]
        if (prior) changes.push({ type: 3, state: prior }, { type: 1, updated: after })
        else changes.push({ type: 0, created: after })
      })
      return changes
    },
  }
  return tx
}
