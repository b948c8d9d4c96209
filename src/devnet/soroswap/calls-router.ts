import { buildContractAddress } from '../ledger/scval.ts'
import {
  getAmountIn,
  getAmountOut,
  type Party,
  quote,
  requireOrFail,
  type SoroswapContracts,
} from './calls-pair.ts'
import { buildRouterLiquidityEvent, buildRouterSwapEvent } from './layout.ts'
import type { TokenName } from './pairs.ts'
import { PAIR_HOLDER, type SoroswapState, type SoroswapTx } from './state.ts'

/**
 * Soroswap's router (soroswap/core contracts/router/src/lib.rs, with soroswap-library 0.3's quotes)
 * and an aggregator that calls a pair's `swap` itself, as the one in mainnet ledger 63092990 does:
 * each over the pair and token functions of calls-pair.ts, failing as the contract fails.
 */

export interface AddLiquidityArgs {
  tokenA: TokenName
  tokenB: TokenName
  desiredA: bigint
  desiredB: bigint
  minA: bigint
  minB: bigint
  to: number
  deadline: bigint
}

export interface RemoveLiquidityArgs {
  tokenA: TokenName
  tokenB: TokenName
  liquidity: bigint
  minA: bigint
  minB: bigint
  to: number
  deadline: bigint
}

/** Exact in: `amount` in, `limit` the least out; exact out: `amount` out, `limit` the most in. */
export interface SwapArgs {
  amount: bigint
  limit: bigint
  path: TokenName[]
  to: number
  deadline: bigint
}

export interface AggregatorSwapArgs {
  pair: number
  tokenIn: TokenName
  user: number
  amountIn: bigint
  minOut: bigint
}

export interface SoroswapRouter {
  addLiquidity(tx: SoroswapTx, r: AddLiquidityArgs): void
  removeLiquidity(tx: SoroswapTx, r: RemoveLiquidityArgs): void
  swapExactIn(tx: SoroswapTx, r: SwapArgs): void
  swapExactOut(tx: SoroswapTx, r: SwapArgs): void
  aggregatorSwap(tx: SoroswapTx, r: AggregatorSwapArgs): void
}

export function createSoroswapRouter(s: SoroswapState, c: SoroswapContracts): SoroswapRouter {
  const router = s.ids.soroswapRouter
  const tokenAddress = (t: TokenName) => buildContractAddress(s.tokens[t].contract)
  const {
    sacTransfer,
    lpTransfer,
    createPair,
    deposit,
    swap,
    withdraw,
    pairOf,
    sideOf,
    requirePair,
    reservesOf,
    accountAddress,
  } = c

  const checkCall = (tx: SoroswapTx, amounts: bigint[], deadline: bigint) => {
    requireOrFail(
      amounts.every((x) => x >= 0n),
      'RouterNegativeNotAllowed',
    )
    requireOrFail(tx.now < deadline, 'DeadlineExpired')
  }
  const addLiquidity = (tx: SoroswapTx, r: AddLiquidityArgs) => {
    checkCall(tx, [r.desiredA, r.desiredB, r.minA, r.minB], r.deadline)
    let i = pairOf(r.tokenA, r.tokenB)
    requireOrFail(i >= 0, 'no such pair on the devnet')
    if (!tx.pair(i).exists) i = createPair(tx, r.tokenA, r.tokenB)
    const [ra, rb] = reservesOf(tx.pair(i), r.tokenA)
    let amountA = r.desiredA
    let amountB = r.desiredB
    if (ra !== 0n || rb !== 0n) {
      const optimalB = quote(r.desiredA, ra, rb)
      if (optimalB <= r.desiredB) {
        requireOrFail(optimalB >= r.minB, 'InsufficientBAmount')
        amountB = optimalB
      } else {
        const optimalA = quote(r.desiredB, rb, ra)
        requireOrFail(optimalA <= r.desiredA, 'assertion failed')
        requireOrFail(optimalA >= r.minA, 'InsufficientAAmount')
        amountA = optimalA
      }
    }
    sacTransfer(tx, r.tokenA, { account: r.to }, { pair: i }, amountA)
    sacTransfer(tx, r.tokenB, { account: r.to }, { pair: i }, amountB)
    const liquidity = deposit(tx, i, r.to)
    tx.events.push(
      buildRouterLiquidityEvent(router, 'add', {
        tokenA: tokenAddress(r.tokenA),
        tokenB: tokenAddress(r.tokenB),
        pair: buildContractAddress(tx.pair(i).pair.id),
        amountA,
        amountB,
        liquidity,
        to: accountAddress(r.to),
      }),
    )
  }
  const removeLiquidity = (tx: SoroswapTx, r: RemoveLiquidityArgs) => {
    checkCall(tx, [r.liquidity, r.minA, r.minB], r.deadline)
    const i = pairOf(r.tokenA, r.tokenB)
    requirePair(tx, i)
    lpTransfer(tx, i, r.to, PAIR_HOLDER, r.liquidity)
    const [a0, a1] = withdraw(tx, i, r.to)
    const [amountA, amountB] = sideOf(tx.pair(i), r.tokenA) === 0 ? [a0, a1] : [a1, a0]
    requireOrFail(amountA >= r.minA, 'InsufficientAAmount')
    requireOrFail(amountB >= r.minB, 'InsufficientBAmount')
    tx.events.push(
      buildRouterLiquidityEvent(router, 'remove', {
        tokenA: tokenAddress(r.tokenA),
        tokenB: tokenAddress(r.tokenB),
        pair: buildContractAddress(tx.pair(i).pair.id),
        amountA,
        amountB,
        liquidity: r.liquidity,
        to: accountAddress(r.to),
      }),
    )
  }
  /** The router's `swap`: each hop's output goes to the next pair, the last to `to`. */
  const swapAlong = (tx: SoroswapTx, amounts: bigint[], path: TokenName[], to: number) => {
    for (let k = 0; k < path.length - 1; k++) {
      const i = pairOf(path[k]!, path[k + 1]!)
      const token0 = tx.pair(i).pair.token0.name
      const out = amounts[k + 1]!
      const [out0, out1] = path[k] === token0 ? [0n, out] : [out, 0n]
      const next: Party = k < path.length - 2 ? { pair: pairOf(path[k + 1]!, path[k + 2]!) } : { account: to }
      swap(tx, i, out0, out1, next)
    }
  }
  const pairsAlong = (tx: SoroswapTx, path: TokenName[]) => {
    requireOrFail(path.length >= 2, 'InvalidPath')
    return path.slice(1).map((t, k) => requirePair(tx, pairOf(path[k]!, t)))
  }
  const swapExactIn = (tx: SoroswapTx, r: SwapArgs) => {
    checkCall(tx, [r.amount, r.limit], r.deadline)
    const amounts = [r.amount]
    pairsAlong(tx, r.path).forEach((p, k) => {
      const [rin, rout] = reservesOf(p, r.path[k]!)
      amounts.push(getAmountOut(amounts[k]!, rin, rout))
    })
    requireOrFail(amounts.at(-1)! >= r.limit, 'InsufficientOutputAmount')
    finishSwap(tx, r, amounts)
  }
  const swapExactOut = (tx: SoroswapTx, r: SwapArgs) => {
    checkCall(tx, [r.amount, r.limit], r.deadline)
    const pairs = pairsAlong(tx, r.path)
    const amounts = [r.amount]
    for (let k = pairs.length - 1; k >= 0; k--) {
      const [rin, rout] = reservesOf(pairs[k]!, r.path[k]!)
      amounts.unshift(getAmountIn(amounts[0]!, rin, rout))
    }
    requireOrFail(amounts[0]! <= r.limit, 'ExcessiveInputAmount')
    finishSwap(tx, r, amounts)
  }
  const finishSwap = (tx: SoroswapTx, r: SwapArgs, amounts: bigint[]) => {
    const first = pairOf(r.path[0]!, r.path[1]!)
    sacTransfer(tx, r.path[0]!, { account: r.to }, { pair: first }, amounts[0]!)
    swapAlong(tx, amounts, r.path, r.to)
    tx.events.push(buildRouterSwapEvent(router, r.path.map(tokenAddress), amounts, accountAddress(r.to)))
  }

  // --- an aggregator that calls the pair itself (the shape of mainnet ledger 63092990)
  const aggregatorSwap = (tx: SoroswapTx, r: AggregatorSwapArgs) => {
    const p = requirePair(tx, r.pair)
    const tokenOut = sideOf(p, r.tokenIn) === 0 ? p.pair.token1.name : p.pair.token0.name
    const agg: Party = { aggregator: true }
    sacTransfer(tx, r.tokenIn, { account: r.user }, agg, r.amountIn)
    sacTransfer(tx, r.tokenIn, agg, { pair: r.pair }, r.amountIn)
    const [rin, rout] = reservesOf(tx.pair(r.pair), r.tokenIn)
    const out = getAmountOut(r.amountIn, rin, rout)
    requireOrFail(out >= r.minOut, 'insufficient output')
    swap(tx, r.pair, sideOf(p, tokenOut) === 0 ? out : 0n, sideOf(p, tokenOut) === 1 ? out : 0n, agg)
    sacTransfer(tx, tokenOut, agg, { account: r.user }, out)
  }

  return { addLiquidity, removeLiquidity, swapExactIn, swapExactOut, aggregatorSwap }
}
