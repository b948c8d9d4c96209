import type { SimulatedProtocol } from '../simulated-protocol.ts'
import { type DevnetIdentities, devnetPassphrase } from '../world/identities.ts'
import { createRng, type Rng } from '../world/prng.ts'
import type { SimTx, WorldState } from '../world/world-state.ts'
import { createSoroswapCalls, priceOf, unitsFor } from './calls.ts'
import { ContractFailure, createSoroswapContracts, getAmountIn, getAmountOut } from './calls-pair.ts'
import { createSoroswapRouter } from './calls-router.ts'
import { lookupSoroswapEntry } from './lookup.ts'
import { listDevnetPairs, listDevnetTokens, type TokenName } from './pairs.ts'
import { createSoroswapState } from './state.ts'

/**
 * Soroswap on the devnet (soroswap/core): the factory and router deployed in the first ledger,
 * pairs created and seeded through the router, then accounts adding and removing liquidity,
 * swapping (through the router, one or two hops, and through an aggregator that calls the pair
 * directly), moving LP tokens by plain transfer, and now and then sending a token straight to a
 * pair, later skimmed or synced. Some LPs sleep for long stretches. Activity comes from its own
 * random stream (`<seed>:soroswap`), so the other protocols' transactions are the same with it or
 * without it. Layouts and choices: docs/devnet.md.
 */

export interface SoroswapOptions {
  /** Probability that a given account acts on Soroswap in a given ledger. */
  activity: number
}

const ROLE_NONE = 0
const ROLE_SWAPPER = 1
const ROLE_LP = 2
/** Holds LP tokens only by transfer: never adds liquidity. */
const ROLE_RECEIVER = 3
/** Home pair weights, in the order of SOROSWAP_PAIR_SPECS. */
const PAIR_WEIGHTS = [35, 15, 15, 12, 10, 13]
const DEADLINE_S = 300n

export function createSoroswap(
  ids: DevnetIdentities,
  accounts: number,
  options: SoroswapOptions,
): SimulatedProtocol {
  const rng: Rng = createRng(`${ids.seed}:soroswap`)
  const tokens = listDevnetTokens(ids)
  const s = createSoroswapState(ids, accounts, tokens, listDevnetPairs(ids, devnetPassphrase(ids.seed)))
  const c = createSoroswapContracts(s)
  const calls = createSoroswapCalls(s, c, createSoroswapRouter(s, c))
  const seeder = accounts
  const role = new Uint8Array(accounts)
  const home = new Uint8Array(accounts)
  const size = new Uint8Array(accounts)
  const dormantUntil = new Int32Array(accounts)
  const receivers: number[] = []
  for (let a = 0; a < accounts; a++) {
    const roll = rng.nextInt(100)
    role[a] = roll < 65 ? ROLE_NONE : roll < 79 ? ROLE_SWAPPER : roll < 94 ? ROLE_LP : ROLE_RECEIVER
    if (role[a] === ROLE_RECEIVER) receivers.push(a)
    home[a] = pickWeighted(rng, PAIR_WEIGHTS)
    size[a] = rng.chance(0.03) ? 40 : 1
    dormantUntil[a] = rng.chance(0.2) ? rng.nextRange(0, 1_500) : 0
  }
  /** Stray transfers to clean up: a skim or a sync at a later ledger. */
  const cleanups: { pair: number; at: number; by: number; skim: boolean }[] = []
  let started = 0

  const deployTxs = (w: WorldState): SimTx[] => {
    started = w.sequence
    return calls.deployTxs(w)
  }

  const funded = (i: number) => (s.pairs[i]!.totalSupply ?? 0n) > 0n
  const lpOf = (i: number, a: number) => s.pairs[i]!.lp.get(a)?.amount ?? 0n
  const usdCents = (a: number, min: number, max: number) => BigInt(rng.nextRange(min, max) * size[a]!) * 100n
  /** The deadline of a call: five minutes ahead, or (1%) already past, and the call fails. */
  const deadlineFor = (w: WorldState) =>
    rng.chance(0.01) ? BigInt(w.closeTime) - 1n : BigInt(w.closeTime) + DEADLINE_S

  const provide = (w: WorldState, a: number, i: number): SimTx => {
    const { spec } = s.pairs[i]!.pair
    const cents = usdCents(a, 50, 5_000)
    let desiredA = unitsFor(w, spec.a, cents)
    let desiredB = unitsFor(w, spec.b, cents)
    let minA = 0n
    let minB = 0n
    if (funded(i)) {
      const [ra, rb] = c.reservesOf(s.pairs[i]!, spec.a)
      // At the pool's ratio, B a little over so that A is taken whole (sometimes the other way).
      const ratioB = (desiredA * rb) / ra
      if (rng.chance(0.7)) desiredB = ratioB + ratioB / 100n
      else desiredA = (desiredB * ra) / rb + (desiredB * ra) / rb / 100n
      minA = (desiredA * 98n) / 100n
      minB = (ratioB * 98n) / 100n
      // Now and then a minimum above what the pool's ratio gives: the router refuses.
      if (rng.chance(0.03)) minB = ratioB + ratioB / 50n + 1n
    }
    return calls.addLiquidity(w, a, i, { desiredA, desiredB, minA, minB }, deadlineFor(w))
  }

  const removeTx = (w: WorldState, a: number, i: number, all: boolean): SimTx | null => {
    const held = lpOf(i, a)
    if (held === 0n) return null
    const liquidity = all ? held : (held * BigInt(rng.nextRange(100, 900))) / 1000n
    if (liquidity === 0n) return null
    const p = s.pairs[i]!
    const { spec } = p.pair
    const supply = p.totalSupply!
    const [ra, rb] = c.reservesOf(p, spec.a)
    let minA = (((ra * liquidity) / supply) * 97n) / 100n
    const minB = (((rb * liquidity) / supply) * 97n) / 100n
    if (rng.chance(0.03)) minA = (ra * liquidity) / supply + 1_000n
    return calls.removeLiquidity(w, a, i, liquidity, [minA, minB], deadlineFor(w))
  }

  /** LP tokens to another account by the token's own `transfer`: mostly to the receivers. */
  const transferTx = (w: WorldState, a: number, i: number, all: boolean): SimTx | null => {
    const held = lpOf(i, a)
    if (held === 0n) return null
    let to =
      receivers.length > 0 && rng.chance(0.7)
        ? receivers[rng.nextInt(receivers.length)]!
        : rng.nextInt(accounts)
    if (to === a) to = (a + 1) % accounts
    if (to === a) return null
    let amount = all ? held : (held * BigInt(rng.nextRange(50, 700))) / 1000n
    // Rarely more than held: the token panics.
    if (rng.chance(0.01)) amount = held + 1n
    return calls.lpTransfer(w, a, i, to, amount)
  }

  /** Which way to trade a pair: mostly towards the feed's price, as arbitrage does. */
  const tokenInFor = (w: WorldState, i: number): TokenName => {
    const p = s.pairs[i]!
    const t0 = p.pair.token0.name
    const t1 = p.pair.token1.name
    // Pool price of token0 in token1 against the feed's, both scaled by 10^6.
    const pool = (p.reserve1 * 1_000_000n) / p.reserve0
    const feed = (priceOf(w, t0) * 1_000_000n) / priceOf(w, t1)
    const cheap0 = pool * 1_000n < feed * 995n
    const dear0 = pool * 1_000n > feed * 1_005n
    if ((cheap0 || dear0) && rng.chance(0.7)) return cheap0 ? t1 : t0
    return rng.chance(0.5) ? t0 : t1
  }

  /** A second hop from the first pair's output token, through another funded pair, or null. */
  const extendPath = (i: number, tokenIn: TokenName): TokenName[] | null => {
    const p = s.pairs[i]!.pair
    const mid = p.token0.name === tokenIn ? p.token1.name : p.token0.name
    const options = s.pairs.filter(
      (q, j) =>
        j !== i &&
        funded(j) &&
        (q.pair.token0.name === mid || q.pair.token1.name === mid) &&
        q.pair.token0.name !== tokenIn &&
        q.pair.token1.name !== tokenIn,
    )
    if (options.length === 0) return null
    const q = options[rng.nextInt(options.length)]!.pair
    return [tokenIn, mid, q.token0.name === mid ? q.token1.name : q.token0.name]
  }

  const swapTx = (w: WorldState, a: number, i: number): SimTx | null => {
    if (!funded(i)) return null
    const p = s.pairs[i]!
    const tokenIn = tokenInFor(w, i)
    const [rin] = c.reservesOf(p, tokenIn)
    let amountIn = unitsFor(w, tokenIn, usdCents(a, 10, 3_000))
    // Never more than 3% of the pool in one trade.
    if (amountIn > (rin * 3n) / 100n) amountIn = (rin * 3n) / 100n
    if (amountIn <= 0n) return null
    const roll = rng.nextInt(100)
    const deadline = deadlineFor(w)
    const slip = rng.chance(0.04)
    if (roll < 15) {
      // Through the aggregator, which calls the pair itself.
      const [rIn, rOut] = c.reservesOf(p, tokenIn)
      const expected = quoteOrNull(() => getAmountOut(amountIn, rIn, rOut))
      if (expected === null) return null
      const minOut = slip ? expected + 1n : (expected * 99n) / 100n
      return calls.aggregatorSwap(w, a, i, tokenIn, amountIn, minOut)
    }
    const path = (rng.chance(0.15) ? extendPath(i, tokenIn) : null) ?? [
      tokenIn,
      p.pair.token0.name === tokenIn ? p.pair.token1.name : p.pair.token0.name,
    ]
    const hops = path.slice(1).map((t, k) => c.reservesOf(s.pairs[c.pairOf(path[k]!, t)]!, path[k]!))
    const out = quoteOrNull(() => hops.reduce((x, [r0, r1]) => getAmountOut(x, r0, r1), amountIn))
    if (out === null || out <= 0n) return null
    if (roll < 30) {
      // Exact out: the amount the quote gives, paying at most 1% over what it costs now.
      const cost = quoteOrNull(() => hops.reduceRight((x, [r0, r1]) => getAmountIn(x, r0, r1), out))
      if (cost === null) return null
      const maxIn = slip ? cost - 1n : cost + cost / 100n
      return calls.routerSwap(w, a, false, path, out, maxIn, deadline)
    }
    const minOut = slip ? out + 1n : (out * 99n) / 100n
    return calls.routerSwap(w, a, true, path, amountIn, minOut, deadline)
  }

  /** A token sent straight to a pair (no pair call), cleaned up later by a skim or a sync. */
  const strayTx = (w: WorldState, a: number, i: number): SimTx | null => {
    if (!funded(i)) return null
    const p = s.pairs[i]!.pair
    const token = rng.chance(0.5) ? p.token0.name : p.token1.name
    const amount = unitsFor(w, token, usdCents(a, 1, 200))
    cleanups.push({
      pair: i,
      at: w.sequence + rng.nextRange(1, 8),
      by: rng.nextInt(accounts),
      skim: rng.chance(0.6),
    })
    return calls.strayTransfer(w, a, i, token, amount)
  }

  const cleanupTxs = (w: WorldState): SimTx[] => {
    const txs: SimTx[] = []
    for (let k = 0; k < cleanups.length; ) {
      const job = cleanups[k]!
      if (job.at > w.sequence) {
        k++
        continue
      }
      cleanups.splice(k, 1)
      const p = s.pairs[job.pair]!
      // Already absorbed by a deposit, swap or withdrawal since: nothing left to clean.
      if ((p.sac0?.amount ?? 0n) === p.reserve0 && (p.sac1?.amount ?? 0n) === p.reserve1) continue
      txs.push(job.skim ? calls.skim(w, job.by, job.pair) : calls.sync(w, job.by, job.pair))
    }
    return txs
  }

  /** What an account does next on Soroswap, or null. */
  const actTx = (w: WorldState, a: number): SimTx | null => {
    const i = home[a]!
    if (rng.chance(0.02)) return strayTx(w, a, i)
    if (role[a] === ROLE_SWAPPER) return swapTx(w, a, rng.chance(0.8) ? i : rng.nextInt(s.pairs.length))
    if (role[a] === ROLE_RECEIVER) {
      const held = s.pairs.findIndex((_, j) => lpOf(j, a) > 0n)
      const roll = rng.nextInt(100)
      if (held >= 0 && roll < 25) return removeTx(w, a, held, rng.chance(0.4))
      if (held >= 0 && roll < 40) return transferTx(w, a, held, rng.chance(0.3))
      return swapTx(w, a, i)
    }
    // A liquidity provider; a pair nobody funded yet gets its first deposit here.
    if (!funded(i) || lpOf(i, a) === 0n)
      return rng.chance(0.75) || !funded(i) ? provide(w, a, i) : swapTx(w, a, i)
    const roll = rng.nextInt(100)
    if (roll < 18) return provide(w, a, i)
    if (roll < 30) return removeTx(w, a, i, false)
    if (roll < 37) return removeTx(w, a, i, true)
    if (roll < 45) return transferTx(w, a, i, false)
    if (roll < 50) return transferTx(w, a, i, true)
    return swapTx(w, a, i)
  }

  const ledgerTxs = (w: WorldState): SimTx[] => {
    if (started === 0 || w.sequence <= started) return []
    const txs = cleanupTxs(w)
    const expected = accounts * options.activity * (0.5 + rng.nextFloat())
    const picks = Math.floor(expected) + (rng.chance(expected % 1) ? 1 : 0)
    for (let k = 0; k < picks; k++) {
      const a = rng.nextInt(accounts)
      if (role[a] === ROLE_NONE || dormantUntil[a]! > w.sequence - started) continue
      const tx = actTx(w, a)
      if (tx) txs.push(tx)
      // Long sleeps for LPs: a position's entries stay as they are while its pair keeps trading.
      if (role[a] === ROLE_LP && rng.chance(0.05))
        dormantUntil[a] = w.sequence - started + rng.nextRange(1_000, 8_000)
      else if (rng.chance(0.08)) dormantUntil[a] = w.sequence - started + rng.nextRange(200, 4_000)
    }
    return txs
  }

  return {
    name: 'soroswap',
    actsInDeployLedger: false,
    deployTxs,
    ledgerTxs,
    lookupEntry: (_w, contract, key, durability, accountOf) =>
      lookupSoroswapEntry(s, contract, key, durability, (v) => {
        if (
          v.type === 18 &&
          v.address.type === 0 &&
          Buffer.from(v.address.accountId.ed25519).equals(ids.soroswapSeeder)
        )
          return seeder
        return accountOf(v)
      }),
  }
}

/** A quote the caller computes before calling; a pool too small to quote means no call. */
function quoteOrNull(quote: () => bigint): bigint | null {
  try {
    return quote()
  } catch (error) {
    if (error instanceof ContractFailure) return null
    throw error
  }
}

function pickWeighted(rng: Rng, weights: number[]): number {
  let roll = rng.nextInt(weights.reduce((a, b) => a + b, 0))
  for (let i = 0; i < weights.length; i++) {
    roll -= weights[i]!
    if (roll < 0) return i
  }
  return weights.length - 1
}
