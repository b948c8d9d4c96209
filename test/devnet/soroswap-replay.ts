import { scValToNative, xdr } from '@stellar/stellar-sdk'
import type { NetworkConfig } from '../../src/chain/network.ts'
import type { DecodedLedger, DecodedTx } from './decode-ledgers.ts'

/**
 * An independent reading of Soroswap on the devnet: it replays the decoded XDR (SAC transfers, LP
 * mint/burn/transfer, pair, factory and router events) into its own balances, reserves and LP
 * books, recomputes every amount with soroswap/core's formulas written again here, and compares
 * the entries each transaction wrote with what the events imply. Problems are collected, not
 * thrown, so one test can report them all.
 */

export const MINIMUM_LIQUIDITY = 1000n

export function isqrt(n: bigint): bigint {
  if (n < 2n) return n
  let lo = 1n
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n
    if (mid * mid <= n) lo = mid
    else hi = mid - 1n
  }
  return lo
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b

/** soroswap-library 0.3 `get_amount_out` and `get_amount_in`. */
export function amountOut(amountIn: bigint, rIn: bigint, rOut: bigint): bigint {
  const less = amountIn - ceilDiv(amountIn * 3n, 1000n)
  return (less * rOut) / (rIn + less)
}

export function amountIn(out: bigint, rIn: bigint, rOut: bigint): bigint {
  return ceilDiv(rIn * out * 1000n, (rOut - out) * 997n) + 1n
}

export const native = (w: xdr.ScValWire): unknown => scValToNative(xdr.ScVal.fromXdrObject(w))

export interface AmmContext {
  factory: string
  router: string
  /** The contract swaps go through without the router (found as the target of `swap` calls). */
  aggregator: string | null
  pairs: Map<string, { token0: string; token1: string }>
  tokens: Set<string>
}

export function buildAmmContext(network: NetworkConfig, txs: DecodedTx[]): AmmContext {
  const byKind = (kind: string) => network.contracts.ammprotocol.filter((c) => c.kind === kind)
  const pairs = new Map(
    byKind('soroswap-pair').map((c) => {
      const t = network.ammprotocol.pairs[c.address]!
      return [c.address, { token0: t.token_0, token1: t.token_1 }]
    }),
  )
  const tokens = new Set([...pairs.values()].flatMap((p) => [p.token0, p.token1]))
  const aggregator = txs.find((t) => t.fn === 'swap' && !pairs.has(t.contract))?.contract ?? null
  return {
    factory: byKind('soroswap-factory')[0]!.address,
    router: byKind('soroswap-router')[0]!.address,
    aggregator,
    pairs,
    tokens,
  }
}

/** One symbol per event, for checking the order of effects: who emitted what, and which way tokens went. */
export function eventSymbols(ctx: AmmContext, tx: DecodedTx): string[] {
  return tx.events.map((e) => {
    const topics = e.topicsWire.map(native)
    if (ctx.tokens.has(e.contractId) && topics[0] === 'transfer') {
      const into = ctx.pairs.has(topics[2] as string)
      const from = ctx.pairs.has(topics[1] as string)
      return into && from ? 'Tpp' : into ? 'T+' : from ? 'T-' : 'Tx'
    }
    if (ctx.pairs.has(e.contractId))
      return topics[0] === 'SoroswapPair' ? String(topics[1]) : `lp:${topics[0]}`
    if (e.contractId === ctx.router) return `router:${topics[1]}`
    if (e.contractId === ctx.factory) return `factory:${topics[1]}`
    return `other:${topics[0]}`
  })
}

export function touchesAmm(ctx: AmmContext, tx: DecodedTx): boolean {
  return (
    tx.contract === ctx.router ||
    tx.contract === ctx.factory ||
    tx.contract === ctx.aggregator ||
    ctx.pairs.has(tx.contract) ||
    tx.events.some((e) => ctx.pairs.has(e.contractId))
  )
}

type Pair = { bal: [bigint, bigint]; reserves: [bigint, bigint]; supply: bigint; lp: Map<string, bigint> }

export interface ReplayResult {
  violations: string[]
  checks: Record<string, number>
  pairs: Map<string, Pair>
  /** `${pair} ${holder}` of accounts that were ever the `to` of an LP mint. */
  minted: Set<string>
  /** `${pair} ${holder}` of accounts that received LP by plain transfer. */
  received: Set<string>
  /** `${pair} ${holder}` of accounts whose balance a transfer took to zero. */
  emptied: Set<string>
  /** `${pair} ${holder}` -> ledger of the last write of its Balance entry, and the value written. */
  lastEntry: Map<string, { ledger: number; amount: bigint }>
  /** Ledgers of each pair's swaps. */
  swapLedgers: Map<string, number[]>
}

/** Replays every successful transaction; checks as it goes. */
export function replaySoroswap(ctx: AmmContext, ledgers: DecodedLedger[]): ReplayResult {
  const r: ReplayResult = {
    violations: [],
    checks: {},
    pairs: new Map(),
    minted: new Set(),
    received: new Set(),
    emptied: new Set(),
    lastEntry: new Map(),
    swapLedgers: new Map(),
  }
  const aggBal = new Map<string, bigint>()
  const check = (name: string, ok: boolean, detail: () => string) => {
    r.checks[name] = (r.checks[name] ?? 0) + 1
    if (!ok && r.violations.length < 50) r.violations.push(`${name}: ${detail()}`)
  }
  const pairOf = (a: string, b: string) =>
    [...ctx.pairs].find(
      ([, t]) => (t.token0 === a && t.token1 === b) || (t.token0 === b && t.token1 === a),
    )![0]
  const state = (pair: string): Pair => {
    let p = r.pairs.get(pair)
    if (!p) {
      p = { bal: [0n, 0n], reserves: [0n, 0n], supply: 0n, lp: new Map() }
      r.pairs.set(pair, p)
    }
    return p
  }
  for (const ledger of ledgers) {
    for (const tx of ledger.txs) {
      if (!tx.successful) {
        check('failed tx changes nothing', tx.changes.length === 0 && tx.events.length === 0, () => tx.hash)
        continue
      }
      if (!touchesAmm(ctx, tx) && !tx.events.some((e) => ctx.tokens.has(e.contractId))) continue
      replayTx(tx, ledger.sequence)
    }
  }
  return r

  function replayTx(tx: DecodedTx, sequence: number) {
    const atStart = new Map([...r.pairs].map(([k, p]) => [k, { ...p, lp: new Map(p.lp) }]))
    const before = (pair: string) => atStart.get(pair) ?? { bal: [0n, 0n], reserves: [0n, 0n], supply: 0n }
    const prevSync = new Map<string, [bigint, bigint]>()
    const synced = new Set<string>()
    const into = new Map<string, bigint>() // `${pair} ${token}` -> amount sent in this tx
    const out = new Map<string, bigint>()
    let burnt: { pair: string; amount: bigint; bal: [bigint, bigint] } | null = null
    let deposit: { liquidity: bigint } | null = null
    let withdraw: { amounts: [bigint, bigint]; pair: string } | null = null
    let lpSent: bigint | null = null
    for (const e of tx.events) {
      const topics = e.topicsWire.map(native)
      const data = native(e.valueWire) as Record<string, unknown> & bigint
      if (ctx.tokens.has(e.contractId) && topics[0] === 'transfer') {
        const [from, to] = [topics[1] as string, topics[2] as string]
        const amount = data as bigint
        for (const [party, sign] of [
          [from, -1n],
          [to, 1n],
        ] as const) {
          if (ctx.pairs.has(party)) {
            const t = ctx.pairs.get(party)!
            check(
              'a pair only holds its own tokens',
              e.contractId === t.token0 || e.contractId === t.token1,
              () => tx.hash,
            )
            const side = e.contractId === t.token0 ? 0 : 1
            state(party).bal[side] += sign * amount
            const book = sign > 0n ? into : out
            book.set(`${party} ${e.contractId}`, (book.get(`${party} ${e.contractId}`) ?? 0n) + amount)
          } else if (party === ctx.aggregator)
            aggBal.set(e.contractId, (aggBal.get(e.contractId) ?? 0n) + sign * amount)
        }
        continue
      }
      if (ctx.pairs.has(e.contractId)) {
        const pair = e.contractId
        const p = state(pair)
        if (topics[0] === 'SoroswapPair') pairEvent(pair, p, String(topics[1]), data)
        else lpEvent(pair, p, topics as string[], data as bigint)
        continue
      }
      if (e.contractId === ctx.router) routerEvent(String(topics[1]), data)
    }
    if (tx.contract === ctx.aggregator) {
      const swaps = tx.events.filter(
        (e) => ctx.pairs.has(e.contractId) && native(e.topicsWire[1]!) === 'swap',
      )
      for (const e of swaps) {
        const pair = e.contractId
        const d = native(e.valueWire) as Record<string, bigint>
        const [r0, r1] = before(pair).reserves
        // The aggregator quotes what it sent, not the pair's amount in (which counts unsynced strays).
        const t = ctx.pairs.get(pair)!
        const sent0 = into.get(`${pair} ${t.token0}`) ?? 0n
        const sent1 = into.get(`${pair} ${t.token1}`) ?? 0n
        const expected = sent0 > 0n ? amountOut(sent0, r0, r1) : amountOut(sent1, r1, r0)
        check(
          'aggregator output is get_amount_out',
          expected === d.amount_0_out! + d.amount_1_out!,
          () => tx.hash,
        )
      }
    }
    for (const pair of synced) {
      const p = state(pair)
      check(
        'reserves equal the pair balances after an action',
        p.bal[0] === p.reserves[0] && p.bal[1] === p.reserves[1],
        () => `${tx.hash} ${pair}`,
      )
    }
    compareEntries(tx, sequence)

    function pairEvent(pair: string, p: Pair, name: string, d: Record<string, unknown>) {
      const v = d as Record<string, bigint>
      if (name === 'sync') {
        prevSync.set(pair, [...p.reserves])
        synced.add(pair)
        check(
          'sync names the balances',
          v.new_reserve_0 === p.bal[0] && v.new_reserve_1 === p.bal[1],
          () => `${tx.hash} ${pair}`,
        )
        p.reserves = [v.new_reserve_0!, v.new_reserve_1!]
        return
      }
      const [r0, r1] = prevSync.get(pair) ?? p.reserves
      const [b0, b1] = p.reserves
      if (name === 'swap') {
        const in0 = b0 > r0 - v.amount_0_out! ? b0 - (r0 - v.amount_0_out!) : 0n
        const in1 = b1 > r1 - v.amount_1_out! ? b1 - (r1 - v.amount_1_out!) : 0n
        check('swap amounts in from balances', in0 === v.amount_0_in && in1 === v.amount_1_in, () => tx.hash)
        const k = (b0 - ceilDiv(in0 * 3n, 1000n)) * (b1 - ceilDiv(in1 * 3n, 1000n))
        check('K with the 0.3% fee holds', k >= r0 * r1, () => tx.hash)
        check('the constant product never decreases across a swap', b0 * b1 >= r0 * r1, () => tx.hash)
        r.swapLedgers.set(pair, [...(r.swapLedgers.get(pair) ?? []), tx.ledger])
      } else if (name === 'deposit') {
        const supply = before(pair).supply
        check(
          'deposit amounts are balances over reserves',
          v.amount_0 === b0 - r0 && v.amount_1 === b1 - r1,
          () => tx.hash,
        )
        const expected =
          supply === 0n
            ? isqrt(v.amount_0! * v.amount_1!) - MINIMUM_LIQUIDITY
            : [(v.amount_0! * supply) / r0, (v.amount_1! * supply) / r1].reduce((a, b) => (a < b ? a : b))
        check(
          supply === 0n ? 'first deposit: sqrt(a0*a1) - 1000' : 'deposit: min(a_i*TS/r_i)',
          v.liquidity === expected,
          () => `${tx.hash} ${v.liquidity} ${expected}`,
        )
        deposit = { liquidity: v.liquidity! }
      } else if (name === 'withdraw') {
        const supply = before(pair).supply
        check('withdraw burns what was sent', burnt?.amount === v.liquidity, () => tx.hash)
        const [c0, c1] = burnt?.bal ?? [0n, 0n]
        check(
          'withdraw: balance_i * shares / TS',
          v.amount_0 === (c0 * v.liquidity!) / supply && v.amount_1 === (c1 * v.liquidity!) / supply,
          () => tx.hash,
        )
        withdraw = { amounts: [v.amount_0!, v.amount_1!], pair }
      } else if (name === 'skim') {
        const t = ctx.pairs.get(pair)!
        check(
          'skim sends the excess',
          v.skimmed_0 === (out.get(`${pair} ${t.token0}`) ?? 0n) &&
            v.skimmed_1 === (out.get(`${pair} ${t.token1}`) ?? 0n),
          () => tx.hash,
        )
        check(
          'skim leaves balances at the reserves',
          p.bal[0] === p.reserves[0] && p.bal[1] === p.reserves[1],
          () => tx.hash,
        )
      }
    }

    function lpEvent(pair: string, p: Pair, topics: string[], amount: bigint) {
      const move = (holder: string, delta: bigint) => p.lp.set(holder, (p.lp.get(holder) ?? 0n) + delta)
      if (topics[0] === 'mint') {
        check('the pair mints as its own admin', topics[1] === pair, () => tx.hash)
        if (p.supply === 0n)
          check(
            'the first mint locks 1000 to the pair',
            topics[2] === pair && amount === MINIMUM_LIQUIDITY,
            () => tx.hash,
          )
        else check('only the first mint goes to the pair', topics[2] !== pair, () => tx.hash)
        move(topics[2]!, amount)
        p.supply += amount
        if (topics[2] !== pair) r.minted.add(`${pair} ${topics[2]}`)
      } else if (topics[0] === 'burn') {
        check('only the pair burns', topics[1] === pair, () => tx.hash)
        burnt = { pair, amount, bal: [...p.bal] }
        move(topics[1]!, -amount)
        p.supply -= amount
      } else if (topics[0] === 'transfer') {
        const [from, to] = [topics[1]!, topics[2]!]
        check('the locked units never leave the pair', from !== pair, () => tx.hash)
        move(from, -amount)
        move(to, amount)
        if (to === pair) lpSent = amount
        else {
          r.received.add(`${pair} ${to}`)
          if (p.lp.get(from) === 0n) r.emptied.add(`${pair} ${from}`)
        }
      }
      check(
        'no LP balance below zero',
        [...p.lp.values()].every((x) => x >= 0n),
        () => tx.hash,
      )
    }

    function routerEvent(name: string, d: Record<string, unknown>) {
      if (name === 'add') {
        const v = d as Record<string, bigint> & { pair: string; token_a: string; token_b: string }
        check('add names the deposit', deposit?.liquidity === v.liquidity, () => tx.hash)
        check(
          'add amounts were sent to the pair',
          into.get(`${v.pair} ${v.token_a}`) === v.amount_a &&
            into.get(`${v.pair} ${v.token_b}`) === v.amount_b,
          () => tx.hash,
        )
        const t = ctx.pairs.get(v.pair)!
        const [r0, r1] = before(v.pair).reserves
        const [ra, rb] = v.token_a === t.token0 ? [r0, r1] : [r1, r0]
        if (ra > 0n || rb > 0n)
          check(
            'add amounts follow quote',
            v.amount_b === (v.amount_a! * rb) / ra || v.amount_a === (v.amount_b! * ra) / rb,
            () => tx.hash,
          )
      } else if (name === 'remove') {
        const v = d as Record<string, bigint> & { pair: string; token_a: string }
        check('remove names the LP sent', lpSent === v.liquidity, () => tx.hash)
        const t = ctx.pairs.get(v.pair)!
        const [a0, a1] = withdraw?.amounts ?? [-1n, -1n]
        check(
          'remove amounts are the withdrawal in (a, b) order',
          v.token_a === t.token0
            ? v.amount_a === a0 && v.amount_b === a1
            : v.amount_a === a1 && v.amount_b === a0,
          () => tx.hash,
        )
      } else if (name === 'swap') {
        const v = d as { amounts: bigint[]; path: string[] }
        for (let k = 0; k < v.path.length - 1; k++) {
          const pair = pairOf(v.path[k]!, v.path[k + 1]!)
          const [r0, r1] = before(pair).reserves
          const [rin, rout] = v.path[k] === ctx.pairs.get(pair)!.token0 ? [r0, r1] : [r1, r0]
          if (tx.fn === 'swap_exact_tokens_for_tokens')
            check(
              'exact in: get_amount_out per hop',
              v.amounts[k + 1] === amountOut(v.amounts[k]!, rin, rout),
              () => tx.hash,
            )
          else
            check(
              'exact out: get_amount_in per hop',
              v.amounts[k] === amountIn(v.amounts[k + 1]!, rin, rout),
              () => tx.hash,
            )
        }
      }
    }
  }

  /** Each entry written must be what the events imply; LP entries sum to TotalSupply. */
  function compareEntries(tx: DecodedTx, sequence: number) {
    for (const c of tx.changes) {
      if (c.kind !== 'created' && c.kind !== 'updated') {
        check(
          'Soroswap entries are never removed',
          c.kind !== 'removed' || !ctx.pairs.has(c.contract),
          () => tx.hash,
        )
        continue
      }
      if (ctx.pairs.has(c.contract)) {
        const p = state(c.contract)
        if (c.key === 'instance') {
          const storage = new Map((c.val as [unknown, unknown][]).map(([k, v]) => [JSON.stringify(k), v]))
          check(
            'instance reserves are the replayed reserves',
            storage.get('2') === p.reserves[0] && storage.get('3') === p.reserves[1],
            () => tx.hash,
          )
          check(
            'instance TotalSupply is the replayed supply',
            (storage.get('["TotalSupply"]') ?? 0n) === p.supply,
            () => tx.hash,
          )
        } else {
          const holder = (c.key as [string, string])[1]
          check(
            'LP Balance entries are the replayed balances',
            c.val === (p.lp.get(holder) ?? 0n),
            () => `${tx.hash} ${holder}`,
          )
          r.lastEntry.set(`${c.contract} ${holder}`, { ledger: sequence, amount: c.val as bigint })
        }
      } else if (ctx.tokens.has(c.contract) && Array.isArray(c.key) && c.key[0] === 'Balance') {
        const holder = c.key[1] as string
        const amount = (c.val as { amount: bigint }).amount
        if (ctx.pairs.has(holder)) {
          const t = ctx.pairs.get(holder)!
          const side = c.contract === t.token0 ? 0 : 1
          check(
            'a pair’s asset balance entries follow its transfers',
            amount === state(holder).bal[side],
            () => tx.hash,
          )
        } else if (holder === ctx.aggregator)
          check(
            'the aggregator keeps nothing',
            amount === 0n && (aggBal.get(c.contract) ?? 0n) === 0n,
            () => tx.hash,
          )
      }
    }
    for (const [pair, p] of r.pairs) {
      const entries = [...r.lastEntry]
        .filter(([k]) => k.startsWith(`${pair} `))
        .reduce((a, [, e]) => a + e.amount, 0n)
      if (!tx.changes.some((c) => c.contract === pair)) continue
      check(
        'TotalSupply equals the sum of all Balance entries',
        entries === p.supply,
        () => `${tx.hash} ${entries} ${p.supply}`,
      )
      if (p.supply > 0n)
        check('the pair holds its locked 1000', p.lp.get(pair) === MINIMUM_LIQUIDITY, () => tx.hash)
    }
  }
}
