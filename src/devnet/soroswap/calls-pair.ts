import type { xdr } from '@stellar/stellar-sdk'
import { buildAccountAddress, buildContractAddress } from '../ledger/scval.ts'
import {
  buildLpBurnEvent,
  buildLpMintEvent,
  buildLpTransferEvent,
  buildNewPairEvent,
  buildPairDepositEvent,
  buildPairSkimEvent,
  buildPairSwapEvent,
  buildPairSyncEvent,
  buildPairWithdrawEvent,
} from './layout.ts'
import type { DevnetToken, TokenName } from './pairs.ts'
import {
  type BalanceEntry,
  buildFactoryInstanceEntry,
  buildLpBalanceEntry,
  buildPairInstanceEntry,
  buildPairRegistryEntries,
  buildSacBalanceEntry,
  lpHolderAddress,
  PAIR_HOLDER,
  type PairState,
  readLp,
  type SoroswapState,
  type SoroswapTx,
} from './state.ts'

/**
 * Soroswap's pair and factory functions, the pair's LP token and a Stellar asset contract's
 * `transfer`, each in the contract's own order of effects and with its own integer rounding
 * (soroswap/core contracts/pair/src/lib.rs, contracts/factory/src/lib.rs, soroswap-library 0.3
 * quotes.rs). A check the contract would fail with throws ContractFailure: the transaction fails
 * and changes nothing.
 */

export class ContractFailure extends Error {}

/** Fails the call (a contract error or panic) unless the condition holds. */
export function requireOrFail(condition: boolean, why: string): asserts condition {
  if (!condition) throw new ContractFailure(why)
}

export const MINIMUM_LIQUIDITY = 1000n

/** Floor of the square root (num-integer's `Roots::sqrt` on i128). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('square root of a negative number')
  if (n < 2n) return n
  // Newton's iteration from above decreases to the floor of the root.
  let x = n
  let y = (x + 1n) >> 1n
  while (y < x) {
    x = y
    y = (x + n / x) >> 1n
  }
  return x
}

const ceilDiv = (a: bigint, b: bigint) => (a % b === 0n ? a / b : a / b + 1n)

/** `get_amount_out`: a 0.3% fee rounded up, then the constant product, rounded down. */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  requireOrFail(amountIn > 0n, 'InsufficientInputAmount')
  requireOrFail(reserveIn > 0n && reserveOut > 0n, 'InsufficientLiquidity')
  const inLessFee = amountIn - ceilDiv(amountIn * 3n, 1000n)
  return (inLessFee * reserveOut) / (reserveIn + inLessFee)
}

/** `get_amount_in`: `ceil(reserve_in × out × 1000 / ((reserve_out − out) × 997)) + 1`. */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  requireOrFail(amountOut > 0n, 'InsufficientOutputAmount')
  requireOrFail(reserveIn > 0n && reserveOut > 0n, 'InsufficientLiquidity')
  requireOrFail(reserveOut > amountOut, 'InsufficientLiquidity')
  return ceilDiv(reserveIn * amountOut * 1000n, (reserveOut - amountOut) * 997n) + 1n
}

export function quote(amountA: bigint, reserveA: bigint, reserveB: bigint): bigint {
  requireOrFail(amountA > 0n, 'InsufficientAmount')
  requireOrFail(reserveA > 0n && reserveB > 0n, 'InsufficientLiquidity')
  return (amountA * reserveB) / reserveA
}

/** Who holds or sends an asset: an account (the seeder is `accounts`), a pair, or the aggregator. */
export type Party = { account: number } | { pair: number } | { aggregator: true }

/** The pair, factory, LP token and asset-contract functions the router and the world call. */
export interface SoroswapContracts {
  sacTransfer(tx: SoroswapTx, token: TokenName, from: Party, to: Party, amount: bigint): void
  lpTransfer(tx: SoroswapTx, pair: number, from: number, to: number, amount: bigint): void
  createPair(tx: SoroswapTx, a: TokenName, b: TokenName): number
  deposit(tx: SoroswapTx, pair: number, to: number): bigint
  swap(tx: SoroswapTx, pair: number, out0: bigint, out1: bigint, to: Party): void
  withdraw(tx: SoroswapTx, pair: number, to: number): [bigint, bigint]
  skim(tx: SoroswapTx, pair: number, to: number): void
  sync(tx: SoroswapTx, pair: number): void
  /** The pair (spec index) of two tokens, or -1. */
  pairOf(a: TokenName, b: TokenName): number
  /** Which of the pair's tokens a token is. */
  sideOf(p: PairState, token: TokenName): 0 | 1
  /** The transaction's copy of an existing pair; fails when it was never created. */
  requirePair(tx: SoroswapTx, pair: number): PairState
  /** Reserves of a pair in the order (a, b), as `get_reserves_with_factory` answers them. */
  reservesOf(view: PairState, a: TokenName): [bigint, bigint]
  accountAddress(account: number): xdr.ScAddressWire
}

export function createSoroswapContracts(s: SoroswapState): SoroswapContracts {
  const { ids } = s
  const accountAddress = (a: number) =>
    buildAccountAddress(a === s.accounts ? ids.soroswapSeeder : ids.accountKey(a))
  const partyAddress = (p: Party): xdr.ScAddressWire =>
    'account' in p
      ? accountAddress(p.account)
      : 'pair' in p
        ? buildContractAddress(s.pairs[p.pair]!.pair.id)
        : buildContractAddress(ids.soroswapAggregator)

  const pairOf = (a: TokenName, b: TokenName) =>
    s.pairs.findIndex(
      (p) =>
        (p.pair.token0.name === a && p.pair.token1.name === b) ||
        (p.pair.token0.name === b && p.pair.token1.name === a),
    )
  const sideOf = (p: PairState, t: TokenName): 0 | 1 => (p.pair.token0.name === t ? 0 : 1)

  // --- asset contract balances of contract holders (accounts' trust lines are not simulated)
  const touchPairSac = (tx: SoroswapTx, i: number, side: 0 | 1) => {
    const token = side === 0 ? s.pairs[i]!.pair.token0 : s.pairs[i]!.pair.token1
    const id = s.pairs[i]!.pair.id
    tx.touch(`sac:${i}:${side}`, (v) =>
      buildSacBalanceEntry(token, id, side === 0 ? v.pair(i).sac0 : v.pair(i).sac1),
    )
  }
  const moveSac = (tx: SoroswapTx, token: DevnetToken, party: Party, delta: bigint) => {
    if ('account' in party) return
    let entry: BalanceEntry | null
    if ('pair' in party) {
      const p = tx.pair(party.pair)
      entry = sideOf(p, token.name) === 0 ? p.sac0 : p.sac1
    } else entry = tx.aggregator().get(token.name) ?? null
    // spend_balance: a contract without an entry can spend nothing; a 0 spend then writes nothing.
    if (!entry && delta <= 0n) {
      requireOrFail(delta === 0n, 'balance is not sufficient to spend')
      return
    }
    const amount = (entry?.amount ?? 0n) + delta
    requireOrFail(amount >= 0n, 'balance is not sufficient to spend')
    const next = { amount, modified: tx.sequence }
    if ('pair' in party) {
      const p = tx.pair(party.pair)
      const side = sideOf(p, token.name)
      if (side === 0) p.sac0 = next
      else p.sac1 = next
      touchPairSac(tx, party.pair, side)
    } else {
      tx.aggregator().set(token.name, next)
      tx.touch(`sac:agg:${token.name}`, (v) =>
        buildSacBalanceEntry(token, ids.soroswapAggregator, v.aggregator().get(token.name) ?? null),
      )
    }
  }
  const sacTransfer = (tx: SoroswapTx, name: TokenName, from: Party, to: Party, amount: bigint) => {
    requireOrFail(amount >= 0n, 'negative amount')
    const token = s.tokens[name]
    moveSac(tx, token, from, -amount)
    moveSac(tx, token, to, amount)
    tx.events.push(s.sac[name].transfer(partyAddress(from), partyAddress(to), amount))
  }

  // --- the pair's LP token (soroswap_pair_token/)
  const touchInstance = (tx: SoroswapTx, i: number) => {
    tx.pair(i).instanceModified = tx.sequence
    tx.touch(`pair:${i}`, (v) => buildPairInstanceEntry(s, v.pair(i)))
  }
  const moveLp = (tx: SoroswapTx, i: number, holder: number, delta: bigint) => {
    const p = tx.pair(i)
    const amount = (readLp(p, holder)?.amount ?? 0n) + delta
    requireOrFail(amount >= 0n, 'insufficient balance')
    p.lpWrites!.set(holder, { amount, modified: tx.sequence })
    tx.touch(`lp:${i}:${holder}`, (v) => buildLpBalanceEntry(s, v.pair(i), holder))
  }
  const mint = (tx: SoroswapTx, i: number, to: number, amount: bigint) => {
    const p = tx.pair(i)
    moveLp(tx, i, to, amount)
    p.totalSupply = (p.totalSupply ?? 0n) + amount
    touchInstance(tx, i)
    const pairAddress = buildContractAddress(p.pair.id)
    tx.events.push(buildLpMintEvent(p.pair.id, pairAddress, lpHolderAddress(s, p, to), amount))
  }
  const burn = (tx: SoroswapTx, i: number, from: number, amount: bigint) => {
    const p = tx.pair(i)
    moveLp(tx, i, from, -amount)
    requireOrFail((p.totalSupply ?? 0n) >= amount, 'insufficient total supply')
    p.totalSupply = (p.totalSupply ?? 0n) - amount
    touchInstance(tx, i)
    tx.events.push(buildLpBurnEvent(p.pair.id, lpHolderAddress(s, p, from), amount))
  }
  const lpTransfer = (tx: SoroswapTx, i: number, from: number, to: number, amount: bigint) => {
    requireOrFail(amount >= 0n, 'negative amount is not allowed')
    const p = tx.pair(i)
    requireOrFail(p.exists, 'no such contract')
    moveLp(tx, i, from, -amount)
    moveLp(tx, i, to, amount)
    tx.events.push(
      buildLpTransferEvent(p.pair.id, lpHolderAddress(s, p, from), lpHolderAddress(s, p, to), amount),
    )
  }

  // --- the pair (contracts/pair/src/lib.rs)
  const balances = (p: PairState): [bigint, bigint] => [p.sac0?.amount ?? 0n, p.sac1?.amount ?? 0n]
  const update = (tx: SoroswapTx, i: number, b0: bigint, b1: bigint) => {
    const p = tx.pair(i)
    p.reserve0 = b0
    p.reserve1 = b1
    touchInstance(tx, i)
    tx.events.push(buildPairSyncEvent(p.pair.id, b0, b1))
  }
  const requirePair = (tx: SoroswapTx, i: number) => {
    requireOrFail(i >= 0 && tx.pair(i).exists, 'pair does not exist')
    return tx.pair(i)
  }
  const deposit = (tx: SoroswapTx, i: number, to: number): bigint => {
    const p = requirePair(tx, i)
    const [b0, b1] = balances(p)
    const a0 = b0 - p.reserve0
    const a1 = b1 - p.reserve1
    requireOrFail(a0 > 0n, 'DepositInsufficientAmountToken0')
    requireOrFail(a1 > 0n, 'DepositInsufficientAmountToken1')
    const supply = p.totalSupply ?? 0n
    let liquidity: bigint
    if (supply === 0n) {
      // The first deposit locks MINIMUM_LIQUIDITY in the pair's own balance forever.
      mint(tx, i, PAIR_HOLDER, MINIMUM_LIQUIDITY)
      const root = isqrt(a0 * a1)
      requireOrFail(root > MINIMUM_LIQUIDITY, 'DepositInsufficientFirstLiquidity')
      liquidity = root - MINIMUM_LIQUIDITY
    } else {
      const s0 = (a0 * supply) / p.reserve0
      const s1 = (a1 * supply) / p.reserve1
      liquidity = s0 < s1 ? s0 : s1
    }
    requireOrFail(liquidity > 0n, 'DepositInsufficientLiquidityMinted')
    mint(tx, i, to, liquidity)
    update(tx, i, b0, b1)
    tx.events.push(
      buildPairDepositEvent(p.pair.id, {
        to: accountAddress(to),
        amount0: a0,
        amount1: a1,
        liquidity,
        reserve0: b0,
        reserve1: b1,
      }),
    )
    return liquidity
  }
  const swap = (tx: SoroswapTx, i: number, out0: bigint, out1: bigint, to: Party) => {
    const p = requirePair(tx, i)
    const r0 = p.reserve0
    const r1 = p.reserve1
    requireOrFail(out0 !== 0n || out1 !== 0n, 'SwapInsufficientOutputAmount')
    requireOrFail(out0 >= 0n && out1 >= 0n, 'SwapNegativesOutNotSupported')
    requireOrFail(out0 < r0 && out1 < r1, 'SwapInsufficientLiquidity')
    if (out0 > 0n) sacTransfer(tx, p.pair.token0.name, { pair: i }, to, out0)
    if (out1 > 0n) sacTransfer(tx, p.pair.token1.name, { pair: i }, to, out1)
    const [b0, b1] = balances(tx.pair(i))
    const in0 = b0 > r0 - out0 ? b0 - (r0 - out0) : 0n
    const in1 = b1 > r1 - out1 ? b1 - (r1 - out1) : 0n
    requireOrFail(in0 !== 0n || in1 !== 0n, 'SwapInsufficientInputAmount')
    const fee0 = ceilDiv(in0 * 3n, 1000n)
    const fee1 = ceilDiv(in1 * 3n, 1000n)
    requireOrFail((b0 - fee0) * (b1 - fee1) >= r0 * r1, 'SwapKConstantNotMet')
    update(tx, i, b0, b1)
    tx.events.push(buildPairSwapEvent(p.pair.id, { to: partyAddress(to), in0, in1, out0, out1 }))
  }
  const withdraw = (tx: SoroswapTx, i: number, to: number): [bigint, bigint] => {
    const p = requirePair(tx, i)
    const shares = readLp(p, PAIR_HOLDER)?.amount ?? 0n
    requireOrFail(shares !== 0n, 'WithdrawLiquidityNotInitialized')
    const sent = shares - MINIMUM_LIQUIDITY
    requireOrFail(sent > 0n, 'WithdrawInsufficientSentShares')
    const supply = p.totalSupply ?? 0n
    const [b0, b1] = balances(p)
    // Shares of the actual balances, not the reserves: what was sent to the pair unsynced goes too.
    const a0 = (b0 * sent) / supply
    const a1 = (b1 * sent) / supply
    requireOrFail(a0 > 0n && a1 > 0n, 'WithdrawInsufficientLiquidityBurned')
    burn(tx, i, PAIR_HOLDER, sent)
    sacTransfer(tx, p.pair.token0.name, { pair: i }, { account: to }, a0)
    sacTransfer(tx, p.pair.token1.name, { pair: i }, { account: to }, a1)
    const [n0, n1] = balances(tx.pair(i))
    update(tx, i, n0, n1)
    tx.events.push(
      buildPairWithdrawEvent(p.pair.id, {
        to: accountAddress(to),
        liquidity: sent,
        amount0: a0,
        amount1: a1,
        reserve0: n0,
        reserve1: n1,
      }),
    )
    return [a0, a1]
  }
  const skim = (tx: SoroswapTx, i: number, to: number) => {
    const p = requirePair(tx, i)
    const [b0, b1] = balances(p)
    const k0 = b0 - p.reserve0
    const k1 = b1 - p.reserve1
    requireOrFail(k0 >= 0n && k1 >= 0n, 'overflow')
    // Both transfers happen, a zero one included.
    sacTransfer(tx, p.pair.token0.name, { pair: i }, { account: to }, k0)
    sacTransfer(tx, p.pair.token1.name, { pair: i }, { account: to }, k1)
    tx.events.push(buildPairSkimEvent(p.pair.id, k0, k1))
  }
  const sync = (tx: SoroswapTx, i: number) => {
    const [b0, b1] = balances(requirePair(tx, i))
    update(tx, i, b0, b1)
  }

  // --- the factory (contracts/factory/src/lib.rs `create_pair`)
  const createPair = (tx: SoroswapTx, a: TokenName, b: TokenName): number => {
    requireOrFail(a !== b, 'CreatePairIdenticalTokens')
    const i = pairOf(a, b)
    requireOrFail(i >= 0 && !tx.pair(i).exists, 'CreatePairAlreadyExists')
    const f = tx.factory()
    const p = tx.pair(i)
    Object.assign(p, {
      exists: true,
      factoryIndex: f.totalPairs,
      createdAt: tx.sequence,
      reserve0: 0n,
      reserve1: 0n,
    })
    touchInstance(tx, i)
    tx.touch(`factory:pair:${i}`, (v) => buildPairRegistryEntries(s, v.pair(i))[0] ?? null)
    tx.touch(`factory:index:${i}`, (v) => buildPairRegistryEntries(s, v.pair(i))[1] ?? null)
    f.totalPairs += 1
    f.instanceModified = tx.sequence
    tx.touch('factory', (v) => buildFactoryInstanceEntry(s, v.factory()))
    tx.events.push(
      buildNewPairEvent(ids.soroswapFactory, {
        token0: buildContractAddress(p.pair.token0.contract),
        token1: buildContractAddress(p.pair.token1.contract),
        pair: buildContractAddress(p.pair.id),
        length: f.totalPairs,
      }),
    )
    return i
  }

  const reservesOf = (p: PairState, a: TokenName): [bigint, bigint] =>
    sideOf(p, a) === 0 ? [p.reserve0, p.reserve1] : [p.reserve1, p.reserve0]

  return {
    sacTransfer,
    lpTransfer,
    createPair,
    deposit,
    swap,
    withdraw,
    skim,
    sync,
    pairOf,
    sideOf,
    requirePair,
    reservesOf,
    accountAddress,
  }
}
