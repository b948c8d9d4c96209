import { scValToNative, xdr } from '@stellar/stellar-sdk'
import type { DevnetChain } from '../../src/devnet/devnet.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import {
  buildReferenceModel,
  decimal,
  latestAtOrBefore,
  type ReferenceModel,
  roundHalfEven,
} from './reference-model.ts'

/**
 * A second, plain reading of the devnet's Soroswap pairs straight from the ledgers' XDR with the
 * SDK's classes (test/devnet/decode-ledgers.ts), sharing no code with the indexer or the API:
 * - an account's AMM state is its LP `Balance(account)` entry of each pair (the pair's own balance,
 *   the 1,000 locked units, is nobody's); a zero balance is no position; a snapshot is written at a
 *   ledger where that state differs at the end from the start, each balance keeping the ledger it
 *   last changed at;
 * - each pair's instance storage (`U32(0..3)`, `TotalSupply`) is kept per ledger (the last write of
 *   a ledger stands);
 * - prices and close times come from the vault reference model's reading of Reflector.
 * Then what the endpoints must answer, with Soroswap's formula (contracts/pair/src/lib.rs
 * `withdraw`: amount_i = balance × reserve_i / total_supply, rounded down) written again.
 */

export interface RefLp {
  pair: string
  balance: bigint
  changedAt: number
}

export interface RefAmmSnapshot {
  ledger: number
  balances: RefLp[]
}

export interface RefPairState {
  ledger: number
  token0: string
  token1: string
  reserve0: bigint
  reserve1: bigint
  supply: bigint | null
}

export interface RefPairEvent {
  ledger: number
  txHash: string
  contract: string
  topics: unknown[]
  data: unknown
}

export interface AmmModel {
  base: ReferenceModel
  pairs: string[]
  state: Map<string, RefPairState[]>
  snapshots: Map<string, RefAmmSnapshot[]>
  events: RefPairEvent[]
  /** Every LP `Balance` write of a pair to its own address (the locked units, withdrawals in flight). */
  pairSelfBalances: Array<{ pair: string; ledger: number; balance: bigint }>
}

export function buildAmmModel(chain: DevnetChain): AmmModel {
  const base = buildReferenceModel(chain)
  const pairs = chain.network.contracts.ammprotocol
    .filter((c) => c.kind === 'soroswap-pair')
    .map((c) => c.address)
  const pairSet = new Set(pairs)
  const model: AmmModel = {
    base,
    pairs,
    state: new Map(),
    snapshots: new Map(),
    events: [],
    pairSelfBalances: [],
  }
  const current = new Map<string, Map<string, RefLp>>()

  for (const ledger of decodeLedgers(chain)) {
    const before = new Map<string, string>()
    for (const tx of ledger.txs) {
      if (!tx.successful) continue
      for (const event of tx.events) {
        if (!pairSet.has(event.contractId)) continue
        model.events.push({
          ledger: ledger.sequence,
          txHash: tx.hash,
          contract: event.contractId,
          topics: event.topics.map((t) => scValToNative(xdr.ScVal.fromXDR(t, 'base64'))),
          data: scValToNative(xdr.ScVal.fromXDR(event.value, 'base64')),
        })
      }
      for (const change of tx.changes) {
        if (!pairSet.has(change.contract) || change.kind === 'state' || change.kind === 'restored') continue
        const pair = change.contract
        if (change.key === 'instance') {
          const storage = new Map(
            (change.val as [unknown, unknown][]).map(([k, v]) => [JSON.stringify(k), v]),
          )
          const s: RefPairState = {
            ledger: ledger.sequence,
            token0: storage.get('0') as string,
            token1: storage.get('1') as string,
            reserve0: storage.get('2') as bigint,
            reserve1: storage.get('3') as bigint,
            // Absent before the first mint: the LP token's read_total_supply answers 0.
            supply: (storage.get('["TotalSupply"]') as bigint | undefined) ?? 0n,
          }
          const list = model.state.get(pair) ?? []
          if (list.at(-1)?.ledger === ledger.sequence) list.pop()
          list.push(s)
          model.state.set(pair, list)
          continue
        }
        if (change.durability !== 'persistent') continue
        const [tag, holder] = change.key as [string, string]
        if (tag !== 'Balance') continue
        const balance = change.kind === 'removed' ? 0n : (change.val as bigint)
        if (holder === pair) {
          model.pairSelfBalances.push({ pair, ledger: ledger.sequence, balance })
          continue
        }
        const held = current.get(holder) ?? new Map<string, RefLp>()
        current.set(holder, held)
        if (!before.has(holder)) before.set(holder, fingerprint(held))
        const old = held.get(pair)
        if (balance === 0n) held.delete(pair)
        else if (old?.balance !== balance) held.set(pair, { pair, balance, changedAt: ledger.sequence })
      }
    }
    for (const [account, was] of before) {
      const held = current.get(account)!
      if (fingerprint(held) === was) continue
      const list = model.snapshots.get(account) ?? []
      list.push({
        ledger: ledger.sequence,
        balances: [...held.values()].sort((a, b) => (a.pair < b.pair ? -1 : 1)).map((b) => ({ ...b })),
      })
      model.snapshots.set(account, list)
    }
  }
  // A pair state rewritten with the same values is no change of value; keep the first ledger of each value.
  for (const [pair, list] of model.state) {
    model.state.set(
      pair,
      list.filter((s, i) => {
        const p = list[i - 1]
        return !p || p.reserve0 !== s.reserve0 || p.reserve1 !== s.reserve1 || p.supply !== s.supply
      }),
    )
  }
  return model
}

function fingerprint(held: Map<string, RefLp>): string {
  return [...held.values()]
    .map((b) => `${b.pair}=${b.balance}`)
    .sort()
    .join(',')
}

export function ammSnapshotAt(model: AmmModel, account: string, ledger: number) {
  return latestAtOrBefore(model.snapshots.get(account), ledger)
}

export function pairStateAt(model: AmmModel, pair: string, ledger: number) {
  return latestAtOrBefore(model.state.get(pair), ledger)
}

export interface AmmValuing {
  at: boolean
  /** Prices (and, with `at`, the pair states) at this ledger. */
  ledger: number
  maxPriceAgeS: number
  /** The ledger the request is about (the pin, capped at the head), which staleness is measured from; default `ledger`. */
  askedAt?: number
}

function priceAt(model: AmmModel, chain: DevnetChain, asset: string, v: AmmValuing) {
  // An asset the description declares pegged to USD is worth exactly one dollar, with no price row.
  if (chain.network.assets[asset]?.price_peg === 'USD')
    return { price: 1n, decimals: 0, problem: null, row: undefined }
  const feed = chain.network.assets[asset]?.price_feed
  const row = feed
    ? latestAtOrBefore(model.base.prices.get(`${feed.oracle}|${feed.asset}`), v.ledger)
    : undefined
  if (!row) return { price: 0n, decimals: 0, problem: 'price_missing' as const, row: undefined }
  const close = model.base.closeTimes.get(v.ledger)!
  const stale = close - Math.floor(row.tsMs / 1000) > v.maxPriceAgeS
  return { price: row.price, decimals: row.decimals, problem: stale ? ('price_stale' as const) : null, row }
}

const R18 = 10n ** 18n

/** (a / 10^da) / (b / 10^db) with 18 decimals, rounded down. */
function ratioOf(a: bigint, da: number, b: bigint, db: number): string {
  return decimal((a * R18 * 10n ** BigInt(db)) / (b * 10n ** BigInt(da)), 18)
}

function staleness(model: AmmModel, ledger: number, rows: Array<{ tsMs: number } | undefined>) {
  const ts = rows.flatMap((r) => (r ? [Math.floor(r.tsMs / 1000)] : []))
  return ts.length === 0 ? 0 : Math.max(0, model.base.closeTimes.get(ledger)! - Math.min(...ts))
}

/** What the positions endpoints must answer for one snapshot. */
export function expectAmm(
  model: AmmModel,
  chain: DevnetChain,
  address: string,
  snap: RefAmmSnapshot,
  v: AmmValuing,
) {
  const positions: unknown[] = []
  const groups: unknown[] = []
  const used = new Map<string, ReturnType<typeof priceAt>>()
  for (const lp of snap.balances) {
    const s = pairStateAt(model, lp.pair, v.at ? v.ledger : lp.changedAt)!
    const supply = s.supply!
    let value: bigint | null = 0n
    let groupProblem: string | null = null
    for (const [token, reserve] of [
      [s.token0, s.reserve0],
      [s.token1, s.reserve1],
    ] as const) {
      const d = chain.network.assets[token]!.decimals
      const amount = (lp.balance * reserve) / supply
      const p = priceAt(model, chain, token, v)
      used.set(token, p)
      const usd = p.problem ? null : roundHalfEven(amount * p.price, 10n ** BigInt(d + p.decimals - 7))
      groupProblem ??= p.problem
      value = value === null || usd === null ? null : value + usd
      positions.push({
        protocol: 'ammprotocol',
        contract_address: lp.pair,
        position_type: 'liquidity',
        asset: token,
        shares: decimal(lp.balance, 7),
        amount: decimal(amount, d),
        amount_usd: usd === null ? null : decimal(usd, 7),
        rate: ratioOf(reserve, d, supply, 7),
        rate_ledger: s.ledger,
        ledger: lp.changedAt,
        usd_unavailable_reason: p.problem,
      })
    }
    groups.push({
      contract_address: lp.pair,
      shares: decimal(lp.balance, 7),
      total_supply: decimal(supply, 7),
      share_of_pool: decimal((lp.balance * R18) / supply, 18),
      value_usd: value === null ? null : decimal(value, 7),
      rate_ledger: s.ledger,
      usd_unavailable_reason: groupProblem,
    })
  }
  return {
    data: { address, positions, groups },
    assets: [...used.keys()].sort(),
    oracleStalenessS: staleness(
      model,
      v.askedAt ?? v.ledger,
      [...used.values()].map((p) => p.row),
    ),
  }
}

/**
 * The pair's 24 hours of trading ending at `v.ledger`, from the swap events read here: every ledger
 * the model holds whose close time is within the 24 hours before the pin's (the model, like the
 * store, starts where the pairs were deployed), fees 0.3 % of each input rounded up.
 */
export function expectVolume(model: AmmModel, chain: DevnetChain, pair: string, v: AmmValuing) {
  const tokens = chain.network.ammprotocol.pairs[pair]!
  const close = model.base.closeTimes.get(v.ledger)
  if (close === undefined) {
    // A pin before the first ledger: no ledger to count from.
    const none = { swaps: null, token_0_in: null, token_0_out: null, token_1_in: null, token_1_out: null }
    return {
      from_ledger: null,
      to_ledger: v.ledger,
      ...none,
      fees_0: null,
      fees_1: null,
      volume_usd: null,
      fees_usd: null,
      unavailable_reason: 'history_missing' as const,
    }
  }
  const from = Math.min(
    ...[...model.base.closeTimes].filter(([, c]) => c > close - 86_400).map(([ledger]) => ledger),
  )
  const swaps = model.events.filter(
    (e) =>
      e.contract === pair &&
      e.topics[0] === 'SoroswapPair' &&
      e.topics[1] === 'swap' &&
      e.ledger >= from &&
      e.ledger <= v.ledger,
  )
  const sum = (field: string) =>
    swaps.reduce((a, e) => a + ((e.data as Record<string, bigint>)[field] ?? 0n), 0n)
  const fee = (field: string) =>
    swaps.reduce((a, e) => a + ((e.data as Record<string, bigint>)[field]! * 3n + 999n) / 1000n, 0n)
  const [d0, d1] = [
    chain.network.assets[tokens.token_0]!.decimals,
    chain.network.assets[tokens.token_1]!.decimals,
  ]
  const [p0, p1] = [priceAt(model, chain, tokens.token_0, v), priceAt(model, chain, tokens.token_1, v)]
  const problem = p0.problem ?? p1.problem
  const usd = (a0: bigint, a1: bigint) =>
    problem
      ? null
      : decimal(
          roundHalfEven(a0 * p0.price, 10n ** BigInt(d0 + p0.decimals - 7)) +
            roundHalfEven(a1 * p1.price, 10n ** BigInt(d1 + p1.decimals - 7)),
          7,
        )
  const [in0, in1, f0, f1] = [sum('amount_0_in'), sum('amount_1_in'), fee('amount_0_in'), fee('amount_1_in')]
  return {
    from_ledger: from,
    to_ledger: v.ledger,
    swaps: swaps.length,
    token_0_in: decimal(in0, d0),
    token_0_out: decimal(sum('amount_0_out'), d0),
    token_1_in: decimal(in1, d1),
    token_1_out: decimal(sum('amount_1_out'), d1),
    fees_0: decimal(f0, d0),
    fees_1: decimal(f1, d1),
    volume_usd: usd(in0, in1),
    fees_usd: usd(f0, f1),
    unavailable_reason: problem,
  }
}

/** What the pool endpoint must answer for one pair at a ledger. */
export function expectPair(model: AmmModel, chain: DevnetChain, pair: string, v: AmmValuing) {
  const s = pairStateAt(model, pair, v.ledger)
  const tokens = chain.network.ammprotocol.pairs[pair]!
  const volume_24h = expectVolume(model, chain, pair, v)
  if (!s) {
    return {
      data: {
        contract_address: pair,
        token_0: tokens.token_0,
        token_1: tokens.token_1,
        reserve_0: null,
        reserve_1: null,
        total_supply: null,
        price_0_in_1: null,
        price_1_in_0: null,
        tvl_usd: null,
        state_ledger: null,
        usd_unavailable_reason: 'reserves_missing',
        volume_24h,
      },
      asOfLedger: null,
    }
  }
  const [d0, d1] = [chain.network.assets[s.token0]!.decimals, chain.network.assets[s.token1]!.decimals]
  const [p0, p1] = [priceAt(model, chain, s.token0, v), priceAt(model, chain, s.token1, v)]
  const problem = p0.problem ?? p1.problem
  const usd = (amount: bigint, d: number, p: typeof p0) =>
    roundHalfEven(amount * p.price, 10n ** BigInt(d + p.decimals - 7))
  return {
    data: {
      contract_address: pair,
      token_0: s.token0,
      token_1: s.token1,
      reserve_0: decimal(s.reserve0, d0),
      reserve_1: decimal(s.reserve1, d1),
      total_supply: s.supply === null ? null : decimal(s.supply, 7),
      price_0_in_1: s.reserve0 === 0n ? null : ratioOf(s.reserve1, d1, s.reserve0, d0),
      price_1_in_0: s.reserve1 === 0n ? null : ratioOf(s.reserve0, d0, s.reserve1, d1),
      tvl_usd: problem ? null : decimal(usd(s.reserve0, d0, p0) + usd(s.reserve1, d1, p1), 7),
      state_ledger: s.ledger,
      usd_unavailable_reason: problem,
      volume_24h,
    },
    asOfLedger: s.ledger,
  }
}
