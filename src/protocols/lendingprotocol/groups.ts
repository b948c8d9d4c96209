import type { NetworkConfig } from '../../chain/network.ts'
import { divCeil, formatUnits, pow10 } from '../kit/amounts.ts'
import type { Valuation } from '../kit/protocol-module.ts'
import { SCALAR_7 } from '../kit/scales.ts'
import { USD_DECIMALS } from '../kit/valuation.ts'
import type { StoredLendingEmissions } from './adapt-ledger.ts'
import { bTokenId, claimable, dTokenId, emissionDataAt, projectIndex } from './emissions.ts'
import type { UsdProblem, ValuedBalance } from './positions.ts'
import { type PoolReader, readReserveOf, reserveAssetsAt } from './reserves.ts'

/**
 * Blend's health figures are summed in the oracle's base currency with 14 decimals (Reflector's),
 * each reserve rounded as pool/src/pool/health_factor.rs rounds it: collateral down, liabilities up.
 */
const BASE_DECIMALS = 14
/** Health factor and borrow limit are reported with 7 decimals, rounded down. */
const RATIO_DECIMALS = 7
/** BLND has 7 decimals. */
const BLND_DECIMALS = 7

export type GroupProblem = UsdProblem | 'config_missing'

export interface EmissionObject {
  reserve_token_id: number
  asset: string | null
  token_type: 'b_token' | 'd_token'
  accrued: string
  claimable: string | null
  emission_ledger: number | null
}

export interface LendingGroup {
  contract_address: string
  collateral_usd: string | null
  supplied_usd: string | null
  borrowed_usd: string | null
  effective_collateral_usd: string | null
  effective_liabilities_usd: string | null
  borrow_limit: string | null
  health_factor: string | null
  claimable_blnd: string | null
  emissions: EmissionObject[]
  usd_unavailable_reason: GroupProblem | null
}

interface Sums {
  collateral: bigint | null
  supplied: bigint | null
  borrowed: bigint | null
  /** Oracle base, 14 decimals. */
  collateralBase: bigint | null
  liabilityBase: bigint | null
  problem: GroupProblem | null
  partial: boolean
}

const add = (sum: bigint | null, value: bigint | null): bigint | null =>
  sum === null || value === null ? null : sum + value

/** price × amount in the base currency with BASE_DECIMALS, rounded down (collateral) or up (liabilities). */
function toBase(amount: bigint, decimals: number, v: ValuedBalance, up: boolean): bigint {
  const numerator = amount * v.priced.price * pow10(BASE_DECIMALS)
  const denominator = pow10(decimals + v.priced.decimals)
  return up ? divCeil(numerator, denominator) : numerator / denominator
}

function addBalance(sums: Sums, v: ValuedBalance): void {
  if (v.problem !== null) sums.problem ??= v.problem
  const { kind } = v.item
  if (kind === 'supply') {
    sums.supplied = add(sums.supplied, v.usd)
    return
  }
  const factor =
    kind === 'collateral' ? (v.reserve.config?.cFactor ?? null) : (v.reserve.config?.lFactor ?? null)
  if (factor === null || factor === 0n) {
    sums.problem ??= 'config_missing'
    sums.partial = true
  }
  const usable = v.amount !== null && factor !== null && factor !== 0n && v.problem === null
  if (kind === 'collateral') {
    sums.collateral = add(sums.collateral, v.usd)
    // effective collateral = floor(underlying × c_factor), valued rounding down (health_factor.rs).
    sums.collateralBase = usable
      ? add(sums.collateralBase, toBase((v.amount! * factor!) / SCALAR_7, v.decimals, v, false))
      : null
  } else {
    sums.borrowed = add(sums.borrowed, v.usd)
    // effective liability = ceil(underlying / l_factor), valued rounding up.
    sums.liabilityBase = usable
      ? add(sums.liabilityBase, toBase(divCeil(v.amount! * SCALAR_7, factor!), v.decimals, v, true))
      : null
  }
}

const fromBase = (value: bigint | null, up: boolean) =>
  value === null
    ? null
    : formatUnits(
        up
          ? divCeil(value, pow10(BASE_DECIMALS - USD_DECIMALS))
          : value / pow10(BASE_DECIMALS - USD_DECIMALS),
        USD_DECIMALS,
      )
const ratio = (numerator: bigint | null, denominator: bigint | null) =>
  numerator === null || denominator === null || denominator === 0n
    ? null
    : formatUnits((numerator * pow10(RATIO_DECIMALS)) / denominator, RATIO_DECIMALS)

/**
 * What the account could claim from one pool, token by token, as Blend's SDK estimates it
 * (`PoolUser.estimateEmissions`): for each reserve token it holds or has a `UserEmis` for, the
 * token's emission index brought up to the valuation ledger's close time, then `accrued` plus the
 * balance's share of the index's growth, rounded as the contract rounds.
 */
async function poolEmissions(
  reader: PoolReader,
  network: NetworkConfig,
  pool: string,
  balances: readonly ValuedBalance[],
  stored: readonly StoredLendingEmissions[],
  valuation: Valuation,
): Promise<{ entries: EmissionObject[]; total: bigint | null; partial: boolean }> {
  const info = network.contracts.lendingprotocol.find((p) => p.address === pool)
  const assets = info ? await reserveAssetsAt(reader, info, valuation.ledger) : new Map<number, string>()
  const held = new Map<number, bigint>()
  for (const { item } of balances) {
    const id = item.kind === 'liabilities' ? dTokenId(item.reserve_index) : bTokenId(item.reserve_index)
    held.set(id, (held.get(id) ?? 0n) + BigInt(item.tokens))
  }
  const users = new Map(stored.map((e) => [e.reserve_token_id, e]))
  const ids = [...new Set([...users.keys(), ...held.keys()])].sort((a, b) => a - b)
  // Every token's reads at once; the entries keep the order of the ids.
  const read = await Promise.all(
    ids.map(async (id) => {
      const asset = assets.get(id >> 1) ?? null
      const [emission, reserve] = await Promise.all([
        emissionDataAt(reader, pool, id, valuation.ledger),
        asset === null ? null : readReserveOf(reader, pool, asset, valuation.ledger),
      ])
      return { id, asset, emission, reserve }
    }),
  )
  const entries: EmissionObject[] = []
  let total: bigint | null = 0n
  let partial = false
  for (const { id, asset, emission, reserve } of read) {
    const user = users.get(id)
    // A token with no emissions: nothing is owed on it, and the account has no entry for it.
    if (emission === null && user === undefined) continue
    const decimals =
      reserve?.config?.decimals ?? (asset === null ? undefined : network.assets[asset]?.decimals) ?? null
    const supply = reserve?.data ? (id % 2 === 0 ? reserve.data.dSupply : reserve.data.bSupply) : null
    let owed: bigint | null = null
    if (emission !== null && decimals !== null && supply !== null) {
      const index =
        valuation.closeTime === null
          ? emission.index
          : projectIndex(emission, supply, decimals, BigInt(valuation.closeTime))
      const userData = user ? { accrued: BigInt(user.accrued), index: BigInt(user.index) } : null
      owed = claimable(userData, held.get(id) ?? 0n, index, decimals)
    } else partial = true
    total = add(total, owed)
    entries.push({
      reserve_token_id: id,
      asset,
      token_type: id % 2 === 0 ? 'd_token' : 'b_token',
      accrued: formatUnits(BigInt(user?.accrued ?? 0), BLND_DECIMALS),
      claimable: owed === null ? null : formatUnits(owed, BLND_DECIMALS),
      emission_ledger: emission?.ledger ?? null,
    })
  }
  return { entries, total: entries.length === 0 ? null : total, partial }
}

/**
 * One group per pool the account holds something in (a balance, or emissions it could still claim):
 * sums in USD, Blend's effective collateral and liabilities, borrow limit (effective liabilities /
 * effective collateral, as the SDK's `PositionsEstimate`) and health factor (effective collateral /
 * effective liabilities, as the contract's `PositionData`), and claimable BLND.
 */
export async function renderGroups(
  reader: PoolReader,
  network: NetworkConfig,
  balances: readonly ValuedBalance[],
  emissions: readonly StoredLendingEmissions[],
  valuation: Valuation,
): Promise<Array<{ object: LendingGroup; partial: boolean }>> {
  const pools = [...new Set([...emissions.map((e) => e.pool), ...balances.map((b) => b.item.pool)])].sort()
  const owedByPool = await Promise.all(
    pools.map((pool) =>
      poolEmissions(
        reader,
        network,
        pool,
        balances.filter((b) => b.item.pool === pool),
        emissions.filter((e) => e.pool === pool),
        valuation,
      ),
    ),
  )
  const groups: Array<{ object: LendingGroup; partial: boolean }> = []
  for (const [p, pool] of pools.entries()) {
    const held = balances.filter((b) => b.item.pool === pool)
    const sums: Sums = {
      collateral: 0n,
      supplied: 0n,
      borrowed: 0n,
      collateralBase: 0n,
      liabilityBase: 0n,
      problem: null,
      partial: false,
    }
    for (const v of held) addBalance(sums, v)
    const owed = owedByPool[p]!
    // An account that left the pool keeps its UserEmis entries: the group stays while BLND is owed.
    const owedSomething = owed.total === null ? owed.entries.length > 0 : owed.total > 0n
    if (held.length === 0 && !owedSomething) continue
    const { collateralBase: cb, liabilityBase: lb } = sums
    groups.push({
      partial: sums.partial || owed.partial,
      object: {
        contract_address: pool,
        collateral_usd: usdString(sums.collateral),
        supplied_usd: usdString(sums.supplied),
        borrowed_usd: usdString(sums.borrowed),
        effective_collateral_usd: fromBase(cb, false),
        effective_liabilities_usd: fromBase(lb, true),
        borrow_limit: ratio(lb, cb),
        health_factor: ratio(cb, lb),
        claimable_blnd: owed.total === null ? null : formatUnits(owed.total, BLND_DECIMALS),
        emissions: owed.entries,
        usd_unavailable_reason: sums.problem,
      },
    })
  }
  return groups
}

function usdString(value: bigint | null): string | null {
  return value === null ? null : formatUnits(value, USD_DECIMALS)
}
