import {
  buildAccountAddress,
  buildAddressVal,
  buildBytes,
  buildContractAddress,
  buildI128,
  buildU64,
  buildVec,
  type ScVal,
} from '../ledger/scval.ts'
import { PRICE_ONE, type SimTx, type WorldState } from '../world/world-state.ts'
import { ContractFailure, type SoroswapContracts } from './calls-pair.ts'
import type { SoroswapRouter } from './calls-router.ts'
import { buildFactoryInitEvent, buildRouterInitEvent } from './layout.ts'
import type { TokenName } from './pairs.ts'
import {
  buildFactoryInstanceEntry,
  buildPairWasmHashLedgerEntry,
  buildRouterInstanceEntry,
  createSoroswapTx,
  type SoroswapState,
  type SoroswapTx,
} from './state.ts'

/**
 * Soroswap transactions as an account sends them: the invoked contract, function and arguments in
 * the contract's own signature, and what the call did (or nothing, when it failed).
 */

export interface SoroswapCalls {
  /** The first ledger: factory and router `initialize`, each pair created (and seeded through the router). */
  deployTxs(w: WorldState): SimTx[]
  addLiquidity(w: WorldState, a: number, pair: number, amounts: LiquidityAmounts, deadline: bigint): SimTx
  removeLiquidity(
    w: WorldState,
    a: number,
    pair: number,
    liquidity: bigint,
    min: [bigint, bigint],
    deadline: bigint,
  ): SimTx
  /** `swap_exact_tokens_for_tokens(amount_in, amount_out_min, ...)` or `swap_tokens_for_exact_tokens(amount_out, amount_in_max, ...)`. */
  routerSwap(
    w: WorldState,
    a: number,
    exactIn: boolean,
    path: TokenName[],
    amount: bigint,
    limit: bigint,
    deadline: bigint,
  ): SimTx
  aggregatorSwap(
    w: WorldState,
    a: number,
    pair: number,
    tokenIn: TokenName,
    amountIn: bigint,
    minOut: bigint,
  ): SimTx
  lpTransfer(w: WorldState, a: number, pair: number, to: number, amount: bigint): SimTx
  /** A token sent straight to a pair with the asset contract's `transfer`. */
  strayTransfer(w: WorldState, a: number, pair: number, token: TokenName, amount: bigint): SimTx
  skim(w: WorldState, by: number, pair: number): SimTx
  sync(w: WorldState, by: number, pair: number): SimTx
}

/** `add_liquidity`'s desired and minimum amounts, in the pair spec's (a, b) order. */
export interface LiquidityAmounts {
  desiredA: bigint
  desiredB: bigint
  minA: bigint
  minB: bigint
}

const DEADLINE_S = 300n
const STROOPS = 10_000_000n

/** USD per unit of a token, 14 decimals, from the world's feed (USDC and USDx at one dollar). */
export function priceOf(w: WorldState, t: TokenName): bigint {
  if (t === 'XLM') return w.xlmPrice
  if (t === 'EURC' || t === 'EURx') return w.denoms[1]!.price
  if (t === 'GBPx') return w.denoms[2]!.price
  return PRICE_ONE
}

/** Stroops of a token worth `usdCents` at the feed's price. */
export function unitsFor(w: WorldState, t: TokenName, usdCents: bigint): bigint {
  return (usdCents * STROOPS * PRICE_ONE) / (100n * priceOf(w, t))
}

export function createSoroswapCalls(
  s: SoroswapState,
  c: SoroswapContracts,
  router: SoroswapRouter,
): SoroswapCalls {
  const { ids } = s
  const keyOf = (a: number) => (a === s.accounts ? ids.soroswapSeeder : ids.accountKey(a))
  const accountVal = (a: number) => buildAddressVal(buildAccountAddress(keyOf(a)))
  const tokenVal = (t: TokenName) => buildAddressVal(buildContractAddress(s.tokens[t].contract))
  const pairVal = (i: number) => buildAddressVal(buildContractAddress(s.pairs[i]!.pair.id))

  /** Runs one contract call; a ContractFailure fails the transaction, which then changes nothing. */
  const call = (
    w: WorldState,
    source: Uint8Array,
    contract: Uint8Array,
    fn: string,
    args: ScVal[],
    body: (tx: SoroswapTx) => void,
  ): SimTx => {
    const tx = createSoroswapTx(s, w.sequence, BigInt(w.closeTime))
    try {
      body(tx)
    } catch (error) {
      if (!(error instanceof ContractFailure)) throw error
      return { source, contract, fn, args, successful: false, changes: [], events: [] }
    }
    return { source, contract, fn, args, successful: true, changes: tx.commit(), events: tx.events }
  }

  const addLiquidity: SoroswapCalls['addLiquidity'] = (w, a, pair, m, deadline) => {
    const { spec } = s.pairs[pair]!.pair
    const args = [
      tokenVal(spec.a),
      tokenVal(spec.b),
      buildI128(m.desiredA),
      buildI128(m.desiredB),
      buildI128(m.minA),
      buildI128(m.minB),
      accountVal(a),
      buildU64(deadline),
    ]
    return call(w, keyOf(a), ids.soroswapRouter, 'add_liquidity', args, (tx) =>
      router.addLiquidity(tx, { tokenA: spec.a, tokenB: spec.b, ...m, to: a, deadline }),
    )
  }

  const deployTxs = (w: WorldState): SimTx[] => {
    s.deployedAt = w.sequence
    s.factory.instanceModified = w.sequence
    const setter = buildAccountAddress(ids.soroswapSetter)
    const factory = buildContractAddress(ids.soroswapFactory)
    // Deployment and `initialize` show as one invocation that creates the instance.
    const txs: SimTx[] = [
      {
        source: ids.soroswapSetter,
        contract: ids.soroswapFactory,
        fn: 'initialize',
        args: [buildAddressVal(setter), buildBytes(ids.soroswapPairWasm)],
        successful: true,
        changes: [
          { type: 0, created: buildFactoryInstanceEntry(s, s.factory)! },
          { type: 0, created: buildPairWasmHashLedgerEntry(s) },
        ],
        events: [buildFactoryInitEvent(ids.soroswapFactory, setter)],
      },
      {
        source: ids.soroswapSetter,
        contract: ids.soroswapRouter,
        fn: 'initialize',
        args: [buildAddressVal(factory)],
        successful: true,
        changes: [{ type: 0, created: buildRouterInstanceEntry(s) }],
        events: [buildRouterInitEvent(ids.soroswapRouter, factory)],
      },
    ]
    const deadline = BigInt(w.closeTime) + DEADLINE_S
    s.pairs.forEach((p, i) => {
      const { spec } = p.pair
      if (spec.depthUsd === 0) {
        // Created empty by the factory itself: its first deposit comes later, from an account.
        const args = [tokenVal(spec.a), tokenVal(spec.b)]
        txs.push(
          call(w, ids.soroswapSetter, ids.soroswapFactory, 'create_pair', args, (tx) => {
            c.createPair(tx, spec.a, spec.b)
          }),
        )
        return
      }
      // The router creates the pair on its first add_liquidity (new_pair inside the same call).
      const cents = BigInt(spec.depthUsd) * 100n
      const [desiredA, desiredB] = [unitsFor(w, spec.a, cents), unitsFor(w, spec.b, cents)]
      const amounts = { desiredA, desiredB, minA: desiredA, minB: desiredB }
      txs.push(addLiquidity(w, s.accounts, i, amounts, deadline))
    })
    return txs
  }

  return {
    deployTxs,
    addLiquidity,
    removeLiquidity: (w, a, pair, liquidity, [minA, minB], deadline) => {
      const { spec } = s.pairs[pair]!.pair
      const args = [
        tokenVal(spec.a),
        tokenVal(spec.b),
        buildI128(liquidity),
        buildI128(minA),
        buildI128(minB),
        accountVal(a),
        buildU64(deadline),
      ]
      return call(w, keyOf(a), ids.soroswapRouter, 'remove_liquidity', args, (tx) =>
        router.removeLiquidity(tx, {
          tokenA: spec.a,
          tokenB: spec.b,
          liquidity,
          minA,
          minB,
          to: a,
          deadline,
        }),
      )
    },
    routerSwap: (w, a, exactIn, path, amount, limit, deadline) => {
      const args = [
        buildI128(amount),
        buildI128(limit),
        buildVec(path.map(tokenVal)),
        accountVal(a),
        buildU64(deadline),
      ]
      const fn = exactIn ? 'swap_exact_tokens_for_tokens' : 'swap_tokens_for_exact_tokens'
      return call(w, keyOf(a), ids.soroswapRouter, fn, args, (tx) =>
        (exactIn ? router.swapExactIn : router.swapExactOut)(tx, { amount, limit, path, to: a, deadline }),
      )
    },
    aggregatorSwap: (w, a, pair, tokenIn, amountIn, minOut) => {
      const args = [tokenVal(tokenIn), accountVal(a), buildI128(amountIn), buildI128(minOut), pairVal(pair)]
      return call(w, keyOf(a), ids.soroswapAggregator, 'swap', args, (tx) =>
        router.aggregatorSwap(tx, { pair, tokenIn, user: a, amountIn, minOut }),
      )
    },
    lpTransfer: (w, a, pair, to, amount) => {
      const args = [accountVal(a), accountVal(to), buildI128(amount)]
      return call(w, keyOf(a), s.pairs[pair]!.pair.id, 'transfer', args, (tx) =>
        c.lpTransfer(tx, pair, a, to, amount),
      )
    },
    strayTransfer: (w, a, pair, token, amount) => {
      const args = [accountVal(a), pairVal(pair), buildI128(amount)]
      return call(w, keyOf(a), s.tokens[token].contract, 'transfer', args, (tx) =>
        c.sacTransfer(tx, token, { account: a }, { pair }, amount),
      )
    },
    skim: (w, by, pair) =>
      call(w, keyOf(by), s.pairs[pair]!.pair.id, 'skim', [accountVal(by)], (tx) => c.skim(tx, pair, by)),
    sync: (w, by, pair) => call(w, keyOf(by), s.pairs[pair]!.pair.id, 'sync', [], (tx) => c.sync(tx, pair)),
  }
}
