import type { DevnetChain } from '../../src/devnet/devnet.ts'
import type { LendingModel, RefBalance, RefLendingSnapshot, RefUserEmis } from './lending-reference-model.ts'
import { stateAt } from './lending-reference-model.ts'
import { decimal, latestAtOrBefore, roundHalfEven } from './reference-model.ts'

/**
 * What the lending endpoints must answer, computed from the reference model with Blend's formulas
 * written again from the sources (blend-contracts-v2 pool/src/pool/{reserve,health_factor,
 * interest}.rs, emissions/distributor.rs; blend-sdk-js reserve.ts `setRates`, pool_user.ts
 * `estimateEmissions`), with no code of Strata's.
 */

const S7 = 10n ** 7n
const S12 = 10n ** 12n
const floorDiv = (a: bigint, b: bigint) => a / b
const ceilDiv = (a: bigint, b: bigint) => (a % b === 0n ? a / b : a / b + 1n)

export interface Valuing {
  /** The /at surface: rates at `ledger` instead of each balance's own. */
  at: boolean
  /** Prices (and, with `at`, rates) at this ledger. */
  ledger: number
  maxPriceAgeS: number
  /** The ledger the request is about (the pin, capped at the head), which staleness is measured from; default `ledger`. */
  askedAt?: number
}

function price(model: LendingModel, chain: DevnetChain, asset: string, v: Valuing) {
  const feed = chain.network.assets[asset]?.price_feed
  const row = feed
    ? latestAtOrBefore(model.base.prices.get(`${feed.oracle}|${feed.asset}`), v.ledger)
    : undefined
  if (!row) return { price: 0n, decimals: 0, problem: 'price_missing' as const, row: undefined }
  const close = model.base.closeTimes.get(v.ledger)!
  const stale = close - Math.floor(row.tsMs / 1000) > v.maxPriceAgeS
  return { price: row.price, decimals: row.decimals, problem: stale ? ('price_stale' as const) : null, row }
}

function reserveAt(model: LendingModel, pool: string, index: number, ledger: number) {
  const asset = (stateAt(model, `${pool}|ResList`, ledger)?.value as string[] | undefined)?.[index]
  if (!asset) throw new Error(`no reserve ${index} in ${pool} at ${ledger}`)
  const data = stateAt(model, `${pool}|ResData|${asset}`, ledger)
  const config = stateAt(model, `${pool}|ResConfig|${asset}`, ledger)
  return { asset, data, config, decimals: Number(config!.value.decimals) }
}

function valueBalance(model: LendingModel, chain: DevnetChain, b: RefBalance, v: Valuing) {
  const reserve = reserveAt(model, b.pool, b.index, v.at ? v.ledger : b.changedAt)
  const borrow = b.kind === 'liabilities'
  const rate: bigint = borrow ? reserve.data!.value.d_rate : reserve.data!.value.b_rate
  const amount = borrow ? ceilDiv(b.tokens * rate, S12) : floorDiv(b.tokens * rate, S12)
  const p = price(model, chain, reserve.asset, v)
  const usd = p.problem
    ? null
    : roundHalfEven(amount * p.price, 10n ** BigInt(reserve.decimals + p.decimals - 7))
  return { b, reserve, rate, amount, p, usd }
}

type Valued = ReturnType<typeof valueBalance>

function emissionsOf(model: LendingModel, pool: string, held: Valued[], users: RefUserEmis[], v: Valuing) {
  const balances = new Map<number, bigint>()
  for (const { b } of held) {
    const id = b.kind === 'liabilities' ? b.index * 2 : b.index * 2 + 1
    balances.set(id, (balances.get(id) ?? 0n) + b.tokens)
  }
  const ids = [...new Set([...users.map((u) => u.id), ...balances.keys()])].sort((a, b) => a - b)
  const close = BigInt(model.base.closeTimes.get(v.ledger)!)
  const entries = []
  let total = 0n
  for (const id of ids) {
    const user = users.find((u) => u.id === id)
    const data = stateAt(model, `${pool}|EmisData|${id}`, v.ledger)
    if (!data && !user) continue
    const reserve = reserveAt(model, pool, id >> 1, v.ledger)
    const supply: bigint = id % 2 === 0 ? reserve.data!.value.d_supply : reserve.data!.value.b_supply
    const {
      eps,
      expiration,
      last_time: last,
    } = data!.value as { eps: bigint; expiration: bigint; last_time: bigint }
    let index: bigint = data!.value.index
    // distributor.rs update_emission_data, to the valuation ledger's close time.
    if (!(last >= expiration || close <= last || eps === 0n || supply === 0n)) {
      const until = close > expiration ? expiration : close
      index += ((until - last) * eps * 10n ** BigInt(reserve.decimals)) / supply
    }
    const balance = balances.get(id) ?? 0n
    const owed =
      (user?.accrued ?? 0n) +
      (balance === 0n
        ? 0n
        : (balance * (index - (user?.index ?? 0n))) / (10n ** BigInt(reserve.decimals) * S7))
    total += owed
    entries.push({
      reserve_token_id: id,
      asset: reserve.asset,
      token_type: id % 2 === 0 ? 'd_token' : 'b_token',
      accrued: decimal(user?.accrued ?? 0n, 7),
      claimable: decimal(owed, 7),
      emission_ledger: data!.ledger,
    })
  }
  return { entries, total: entries.length === 0 ? null : total }
}

const TYPE = { collateral: 'collateral', liabilities: 'borrow', supply: 'supply' } as const

/** The `data` (and what meta and enrichment need) of one snapshot valued as the endpoint must. */
export function expectLending(
  model: LendingModel,
  chain: DevnetChain,
  address: string,
  snapshot: RefLendingSnapshot,
  v: Valuing,
) {
  const valued = snapshot.balances.map((b) => valueBalance(model, chain, b, v))
  const positions = valued.map((x) => ({
    protocol: 'lendingprotocol',
    contract_address: x.b.pool,
    position_type: TYPE[x.b.kind],
    asset: x.reserve.asset,
    shares: decimal(x.b.tokens, x.reserve.decimals),
    amount: decimal(x.amount, x.reserve.decimals),
    amount_usd: x.usd === null ? null : decimal(x.usd, 7),
    rate: decimal(x.rate, 12),
    rate_ledger: x.reserve.data!.ledger,
    ledger: x.b.changedAt,
    usd_unavailable_reason: x.p.problem,
  }))
  const pools = [...new Set([...snapshot.balances, ...snapshot.emissions].map((i) => i.pool))].sort()
  const groups = []
  for (const pool of pools) {
    const held = valued.filter((x) => x.b.pool === pool)
    const owed = emissionsOf(
      model,
      pool,
      held,
      snapshot.emissions.filter((e) => e.pool === pool),
      v,
    )
    if (held.length === 0 && !(owed.total !== null && owed.total > 0n)) continue
    const sum = (kind: string) =>
      held
        .filter((x) => x.b.kind === kind)
        .reduce<bigint | null>((s, x) => (s === null || x.usd === null ? null : s + x.usd), 0n)
    let cb: bigint | null = 0n
    let lb: bigint | null = 0n
    for (const x of held) {
      const c = x.reserve.config!.value
      const scale = 10n ** BigInt(x.reserve.decimals + x.p.decimals - 14)
      if (x.b.kind === 'collateral')
        cb =
          x.p.problem || cb === null
            ? null
            : cb + (x.p.price * ((x.amount * BigInt(c.c_factor)) / S7)) / scale
      if (x.b.kind === 'liabilities')
        lb =
          x.p.problem || lb === null
            ? null
            : lb + ceilDiv(x.p.price * ceilDiv(x.amount * S7, BigInt(c.l_factor)), scale)
    }
    const ratio = (n: bigint | null, d: bigint | null) =>
      n === null || d === null || d === 0n ? null : decimal((n * S7) / d, 7)
    groups.push({
      contract_address: pool,
      collateral_usd: nullableDecimal(sum('collateral')),
      supplied_usd: nullableDecimal(sum('supply')),
      borrowed_usd: nullableDecimal(sum('liabilities')),
      effective_collateral_usd: cb === null ? null : decimal(cb / S7, 7),
      effective_liabilities_usd: lb === null ? null : decimal(ceilDiv(lb, S7), 7),
      borrow_limit: ratio(lb, cb),
      health_factor: ratio(cb, lb),
      claimable_blnd: owed.total === null ? null : decimal(owed.total, 7),
      emissions: owed.entries,
      usd_unavailable_reason: held.find((x) => x.p.problem)?.p.problem ?? null,
    })
  }
  const rows = valued.flatMap((x) => (x.p.row ? [x.p.row] : []))
  return {
    data: { address, positions, groups },
    assets: [...new Set(valued.map((x) => x.reserve.asset))].sort(),
    oracleStalenessS:
      rows.length === 0
        ? 0
        : Math.max(
            0,
            model.base.closeTimes.get(v.askedAt ?? v.ledger)! -
              Math.min(...rows.map((r) => Math.floor(r.tsMs / 1000))),
          ),
    /** The ledger whose prices value the answer: null when it holds no balance to value. */
    valuationLedger: snapshot.balances.length === 0 ? null : v.ledger,
  }
}

const nullableDecimal = (value: bigint | null) => (value === null ? null : decimal(value, 7))
/** Epoch seconds as RFC 3339 (UTC, milliseconds), as docs/api.md's conventions write timestamps. */
const iso = (seconds: bigint | number) => new Date(Number(seconds) * 1000).toISOString()

const f7 = (value: bigint | number) => decimal(BigInt(value), 7)
const STATUS = ['admin_active', 'active', 'admin_on_ice', 'on_ice', 'admin_frozen', 'frozen', 'setup']

/** blend-sdk-js reserve.ts `setRates` on the contract's utilization (reserve.rs): [util, borrow APR, supply APR]. */
function rates(config: Record<string, number>, data: Record<string, bigint>, bstopRate: bigint) {
  const supplied = floorDiv(data.b_supply! * data.b_rate!, S12)
  const borrowed = ceilDiv(data.d_supply! * data.d_rate!, S12)
  const util = borrowed === 0n ? 0n : borrowed >= supplied ? S7 : ceilDiv(borrowed * S7, supplied)
  if (util === 0n) return [util, BigInt(config.r_base!), 0n]
  const mulCeil = (a: bigint, b: bigint) => ceilDiv(a * b, S7)
  const divCeil = (a: bigint, b: bigint) => ceilDiv(a * S7, b)
  const [target, r0, r1, r2, r3] = [
    config.util,
    config.r_base,
    config.r_one,
    config.r_two,
    config.r_three,
  ].map((x) => BigInt(x!)) as [bigint, bigint, bigint, bigint, bigint]
  const irMod = data.ir_mod!
  let ir: bigint
  if (util <= target) ir = mulCeil(mulCeil(divCeil(util, target), r1) + r0, irMod)
  else if (util <= 9_500_000n)
    ir = mulCeil(mulCeil(divCeil(util - target, 9_500_000n - target), r2) + r1 + r0, irMod)
  else ir = mulCeil(divCeil(util - 9_500_000n, 500_000n), r3) + mulCeil(irMod, r2 + r1 + r0)
  const capture = floorDiv((S7 - bstopRate) * util, S7)
  return [util, ir, floorDiv(ir * capture, S7)]
}

/**
 * (1 + apr/n)^n − 1 at 7 decimals (blend-sdk-js reserve.ts: borrow n = 365, supply n = 52) as one
 * exact fraction, its powers built by n plain multiplications, rounded up or down once.
 */
function apy(apr: bigint, n: number, up: boolean) {
  const unit = BigInt(n) * S7
  let grown = 1n
  let denominator = 1n
  for (let k = 0; k < n; k++) {
    grown *= unit + apr
    denominator *= unit
  }
  const numerator = (grown - denominator) * S7
  return up ? ceilDiv(numerator, denominator) : floorDiv(numerator, denominator)
}

/**
 * Emission APR of one reserve token as blend-ui's `estimateEmissionsApr` over the SDK's
 * `emissionsPerYearPerToken`, with oracle prices: eps/10^14 × 31,536,000 × BLND price ÷ (held ×
 * asset price), as one fraction rounded down; the rules for 0 and null as docs/api.md states them.
 */
function emissionAprOf(
  model: LendingModel,
  chain: DevnetChain,
  pool: string,
  id: number,
  held: bigint,
  decimals: number,
  v: Valuing,
) {
  const data = stateAt(model, `${pool}|EmisData|${id}`, v.ledger)
  if (!data) return [0n, null] as const
  const { eps, expiration } = data.value as { eps: bigint; expiration: bigint }
  const close = BigInt(model.base.closeTimes.get(v.ledger)!)
  if (eps === 0n || expiration <= close) return [0n, null] as const
  if (held === 0n) return [null, 'no_holders'] as const
  const blnd = stateAt(model, `${pool}|BLNDTkn`, v.ledger)
  if (!blnd) return [null, 'emission_token_missing'] as const
  const asset = price(
    model,
    chain,
    (stateAt(model, `${pool}|ResList`, v.ledger)!.value as string[])[id >> 1]!,
    v,
  )
  if (asset.problem) return [null, asset.problem] as const
  const b = price(model, chain, String(blnd.value), v)
  if (b.problem) return [null, b.problem] as const
  const numerator = eps * 31_536_000n * b.price * 10n ** BigInt(decimals + asset.decimals) * S7
  return [floorDiv(numerator, 10n ** BigInt(14 + b.decimals) * held * asset.price), null] as const
}

/** The pool endpoint's `data` and `meta.as_of_ledger` at a ledger. */
export function expectPool(model: LendingModel, chain: DevnetChain, pool: string, v: Valuing) {
  const info = chain.network.contracts.lendingprotocol.find((p) => p.address === pool)!
  const config = stateAt(model, `${pool}|Config`, v.ledger)
  const name = stateAt(model, `${pool}|Name`, v.ledger)
  const assets = (stateAt(model, `${pool}|ResList`, v.ledger)?.value ?? []) as string[]
  let asOf = Math.max(config?.ledger ?? -1, name?.ledger ?? -1)
  let suppliedUsd: bigint | null = 0n
  let borrowedUsd: bigint | null = 0n
  const reserves = assets.map((asset, index) => {
    const data = stateAt(model, `${pool}|ResData|${asset}`, v.ledger)!
    const rc = stateAt(model, `${pool}|ResConfig|${asset}`, v.ledger)!
    asOf = Math.max(asOf, data.ledger, rc.ledger)
    const d = data.value as Record<string, bigint>
    const c = rc.value as Record<string, number>
    const dec = Number(c.decimals)
    const supplied = floorDiv(d.b_supply! * d.b_rate!, S12)
    const borrowed = ceilDiv(d.d_supply! * d.d_rate!, S12)
    const [util, borrowApr, supplyApr] = rates(c, d, BigInt(config!.value.bstop_rate))
    const p = price(model, chain, asset, v)
    const usd = (x: bigint) =>
      p.problem ? null : roundHalfEven(x * p.price, 10n ** BigInt(dec + p.decimals - 7))
    const [su, bu] = [usd(supplied), usd(borrowed)]
    suppliedUsd = suppliedUsd === null || su === null ? null : suppliedUsd + su
    borrowedUsd = borrowedUsd === null || bu === null ? null : borrowedUsd + bu
    const [supplyEmission, supplyReason] = emissionAprOf(model, chain, pool, index * 2 + 1, supplied, dec, v)
    const [borrowEmission, borrowReason] = emissionAprOf(model, chain, pool, index * 2, borrowed, dec, v)
    return {
      contract_address: pool,
      asset,
      index,
      decimals: dec,
      enabled: c.enabled,
      c_factor: f7(c.c_factor!),
      l_factor: f7(c.l_factor!),
      target_utilization: f7(c.util!),
      max_utilization: f7(c.max_util!),
      r_base: f7(c.r_base!),
      r_one: f7(c.r_one!),
      r_two: f7(c.r_two!),
      r_three: f7(c.r_three!),
      reactivity: f7(c.reactivity!),
      supply_cap: decimal(BigInt(c.supply_cap!), dec),
      b_rate: decimal(d.b_rate!, 12),
      d_rate: decimal(d.d_rate!, 12),
      b_supply: decimal(d.b_supply!, dec),
      d_supply: decimal(d.d_supply!, dec),
      backstop_credit: decimal(d.backstop_credit!, dec),
      supplied: decimal(supplied, dec),
      borrowed: decimal(borrowed, dec),
      utilization: f7(util!),
      borrow_apr: f7(borrowApr!),
      supply_apr: f7(supplyApr!),
      borrow_apy: f7(apy(borrowApr!, 365, true)),
      supply_apy: f7(apy(supplyApr!, 52, false)),
      rates_unavailable_reason: null,
      supply_emission_apr: supplyEmission === null ? null : f7(supplyEmission),
      supply_emission_apr_unavailable_reason: supplyReason,
      borrow_emission_apr: borrowEmission === null ? null : f7(borrowEmission),
      borrow_emission_apr_unavailable_reason: borrowReason,
      computed_ledger: v.ledger,
      ir_mod: f7(d.ir_mod!),
      last_accrued_at: iso(d.last_time!),
      rate_ledger: data.ledger,
      config_ledger: rc.ledger,
      supplied_usd: su === null ? null : f7(su),
      borrowed_usd: bu === null ? null : f7(bu),
      usd_unavailable_reason: p.problem,
    }
  })
  const cfg = config?.value
  return {
    asOfLedger: asOf < 0 ? null : asOf,
    data: {
      contract_address: pool,
      name: name ? String(name.value) : info.name,
      config: cfg
        ? {
            oracle: cfg.oracle,
            bstop_rate: f7(cfg.bstop_rate),
            status: cfg.status,
            status_name: STATUS[cfg.status],
            max_positions: cfg.max_positions,
            min_collateral: String(cfg.min_collateral),
            ledger: config!.ledger,
          }
        : null,
      reserves,
      supplied_usd: reserves.length === 0 || suppliedUsd === null ? null : f7(suppliedUsd),
      borrowed_usd: reserves.length === 0 || borrowedUsd === null ? null : f7(borrowedUsd),
    },
  }
}

/** The emissions endpoint's `data.emissions` at a ledger. */
export function expectEmissions(model: LendingModel, ledger: number) {
  return model.pools.flatMap((pool) => {
    const shares = (stateAt(model, `${pool}|PoolEmis`, ledger)?.value ?? {}) as Record<string, bigint>
    const assets = (stateAt(model, `${pool}|ResList`, ledger)?.value ?? []) as string[]
    return assets.flatMap((asset, index) =>
      [index * 2, index * 2 + 1].flatMap((id) => {
        const data = stateAt(model, `${pool}|EmisData|${id}`, ledger)
        if (!data) return []
        return [
          {
            contract_address: pool,
            reserve_token_id: id,
            asset,
            token_type: id % 2 === 0 ? 'd_token' : 'b_token',
            share: shares[id] === undefined ? null : f7(shares[id]!),
            eps: decimal(data.value.eps, 14),
            expires_at: iso(data.value.expiration),
            index: decimal(data.value.index, 14),
            index_updated_at: iso(data.value.last_time),
            ledger: data.ledger,
          },
        ]
      }),
    )
  })
}
