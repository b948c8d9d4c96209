import type { Awaitable } from '../../awaitable.ts'
import type { NetworkConfig, YieldContractInfo } from '../../chain/network.ts'
import { pow10 } from '../kit/amounts.ts'
import { historyComplete } from '../kit/coverage.ts'
import type { PositionsReader, StateRow } from '../kit/protocol-module.ts'
import { SCALAR_12 } from '../kit/scales.ts'
import { YIELD_STATE } from './adapt-ledger.ts'

/**
 * A vault's total managed funds at a ledger, from its own state at that ledger, exactly as the
 * vault's `fetch_total_managed_funds(lock_fees = true)` computes them when a deposit or withdrawal
 * opens (paltalabs/defindex vault/src/funds.rs, report.rs; strategies/blend/src/{utils,reserves}.rs),
 * with one difference: the Blend reserve's `b_rate` is the one the pool last stored at or before
 * the ledger, not accrued to the ledger's time.
 *
 *   idle_i          = the vault's balance in asset i's contract
 *   balance_s       = floor(floor(VaultPos × total_b_tokens / total_shares) × b_rate / 10^12)
 *                     (0 without shares, or when the strategy's reserves hold nothing)
 *   report_s        = Report with gains += balance − prev_balance (prev 0 counts as balance),
 *                     then locked_fee += floor(gains × VaultFee / 10^4) when gains are positive
 *   invested_i      = Σ_s (balance_s − locked_fee_s)
 *   total_i         = idle_i + invested_i
 *
 * Known versus unknown, one rule: an entry the store saw reads as stored; an entry it saw absent
 * reads as the contracts read it (no `TotalSupply` in a vault instance the store saw: 0, as the
 * df-token's total supply reads before the first mint; no `VaultPos`, idle balance or `Report`
 * while the store holds the vault's whole history: 0 and an empty report, as `unwrap_or` makes
 * them); an entry the store never saw (written before its first ledger) is unknown, null, and
 * everything computed from it is null too.
 */

/** df-tokens have 7 decimals (vault/src/lib.rs constructor). */
export const SHARE_DECIMALS = 7
/** The digits of `price_per_share` below the asset's unit. */
export const PRICE_DECIMALS = 12

export interface StateReader {
  stateAt(contract: string, key: string, ledger: number): Awaitable<StateRow | null>
}

/**
 * Whether the store saw every entry the vault wrote up to `ledger` (it started no later than the
 * vault's deployment, or at genesis): then an entry it never saw is absent on chain too.
 */
export async function vaultHistoryComplete(
  reader: Pick<PositionsReader, 'head'>,
  vault: YieldContractInfo,
  ledger: number,
): Promise<boolean> {
  return historyComplete(vault, (await reader.head()).firstIndexedLedger, ledger)
}

export interface StrategyReserves {
  bRate: bigint
  totalBTokens: bigint
  totalShares: bigint
}

export interface Report {
  gainsOrLosses: bigint
  lockedFee: bigint
  prevBalance: bigint
}

/** `shares_to_underlying` of the Blend strategy with the pool's b_rate. */
export function strategyBalance(
  shares: bigint,
  reserves: StrategyReserves | null,
  bRate: bigint | null,
): bigint | null {
  if (shares === 0n) return 0n
  if (reserves === null) return null
  if (reserves.totalShares === 0n || reserves.totalBTokens === 0n) return 0n
  if (bRate === null) return null
  return (((shares * reserves.totalBTokens) / reserves.totalShares) * bRate) / SCALAR_12
}

/** `Report::report(balance)` then `lock_fee(vault_fee)` (vault/src/report.rs). */
export function reportAndLock(report: Report, balance: bigint, vaultFeeBps: bigint): Report {
  const prev = report.prevBalance === 0n ? balance : report.prevBalance
  let gains = report.gainsOrLosses + balance - prev
  let locked = report.lockedFee
  if (gains > 0n) {
    locked += (gains * vaultFeeBps) / 10_000n
    gains = 0n
  }
  return { gainsOrLosses: gains, lockedFee: locked, prevBalance: balance }
}

/** One whole share in the asset's units, to PRICE_DECIMALS digits (rounded down); null without supply. */
export function pricePerShare(total: bigint, totalSupply: bigint, assetDecimals: number): bigint | null {
  if (totalSupply <= 0n) return null
  return (total * pow10(SHARE_DECIMALS + PRICE_DECIMALS)) / (totalSupply * pow10(assetDecimals))
}

/** `get_asset_amounts_per_shares`: shares × total / supply, rounded down. */
export function underlyingOf(shares: bigint, total: bigint, totalSupply: bigint): bigint | null {
  return totalSupply <= 0n ? null : (shares * total) / totalSupply
}

export interface StrategyFunds {
  address: string
  name: string | null
  paused: boolean | null
  pool: string | null
  /** The vault's strategy shares (`VaultPos`); null when the entry was never seen. */
  shares: bigint | null
  reserves: StrategyReserves | null
  /** The pool's stored b_rate used, and the ledger it was written at (null: not needed or unknown). */
  bRate: bigint | null
  bRateLedger: number | null
  /** The strategy's `balance(vault)`; null when its reserves or the pool's rate are unknown. */
  balance: bigint | null
  /** The locked fee after the report and lock of this computation. */
  lockedFee: bigint | null
  /** balance − locked fee. */
  invested: bigint | null
}

export interface AssetFunds {
  asset: string
  /** The vault's balance of the asset; null when the entry was never seen. */
  idle: bigint | null
  invested: bigint | null
  total: bigint | null
  strategies: StrategyFunds[]
}

export interface VaultFunds {
  vault: string
  /** df-tokens issued; null when the vault's instance entry was never seen. */
  totalSupply: bigint | null
  vaultFeeBps: bigint | null
  protocolFeeBps: bigint | null
  assets: AssetFunds[]
  /** The latest ledger at which an entry used was written (null: none seen). */
  stateLedger: number | null
  /** Something the totals need was never seen by the store (a figure above is null for it). */
  partial: boolean
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const big = (v: unknown): bigint | null => (typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt(v) : null)

function parseReserves(row: StateRow | null): StrategyReserves | null {
  const v: unknown = row ? JSON.parse(row.value) : null
  if (!isRecord(v)) return null
  const bRate = big(v.b_rate)
  const totalBTokens = big(v.total_b_tokens)
  const totalShares = big(v.total_shares)
  return bRate === null || totalBTokens === null || totalShares === null
    ? null
    : { bRate, totalBTokens, totalShares }
}

function parseReport(row: StateRow | null): Report | null {
  const v: unknown = row ? JSON.parse(row.value) : null
  if (!isRecord(v)) return null
  const gainsOrLosses = big(v.gains_or_losses)
  const lockedFee = big(v.locked_fee)
  const prevBalance = big(v.prev_balance)
  return gainsOrLosses === null || lockedFee === null || prevBalance === null
    ? null
    : { gainsOrLosses, lockedFee, prevBalance }
}

const intOf = (row: StateRow | null): bigint | null => {
  if (!row) return null
  const v: unknown = JSON.parse(row.value)
  return typeof v === 'number' ? BigInt(v) : big(v)
}

interface StrategyRef {
  address: string
  name: string | null
  paused: boolean | null
}

/** The vault's assets and their strategies: `AssetStrategySet(i)` as stored, else the network description. */
async function assetSets(
  reader: StateReader,
  network: NetworkConfig,
  vault: YieldContractInfo,
  ledger: number,
  countRow: StateRow | null,
  seen: (row: StateRow | null) => void,
): Promise<Array<{ asset: string; strategies: StrategyRef[] }>> {
  const count = intOf(countRow)
  if (count !== null) {
    const rows = await Promise.all(
      Array.from({ length: Number(count) }, (_, i) =>
        reader.stateAt(vault.address, YIELD_STATE.assetStrategySet(i), ledger),
      ),
    )
    const sets: Array<{ asset: string; strategies: StrategyRef[] }> = []
    for (const row of rows) {
      seen(row)
      const v: unknown = row ? JSON.parse(row.value) : null
      if (!isRecord(v) || typeof v.address !== 'string' || !Array.isArray(v.strategies)) break
      sets.push({
        asset: v.address,
        strategies: v.strategies.filter(isRecord).map((s) => ({
          address: String(s.address),
          name: typeof s.name === 'string' ? s.name : null,
          paused: typeof s.paused === 'boolean' ? s.paused : null,
        })),
      })
    }
    if (sets.length === Number(count)) return sets
  }
  const byAddress = new Map(network.contracts.yieldprotocol.map((c) => [c.address, c]))
  return (vault.assets ?? []).map((asset) => ({
    asset,
    strategies: (vault.strategies ?? [])
      .filter((s) => byAddress.get(s)?.asset === asset)
      .map((address) => ({ address, name: byAddress.get(address)?.name ?? null, paused: null })),
  }))
}

/**
 * The vault's funds at `ledger`, each entry as last written at or before it. `complete`: the store
 * holds the vault's whole history up to `ledger` (`vaultHistoryComplete`), so an entry it never saw
 * is absent on chain; otherwise such an entry is unknown.
 */
export async function readVaultFunds(
  reader: StateReader,
  network: NetworkConfig,
  vault: YieldContractInfo,
  ledger: number,
  complete: boolean,
): Promise<VaultFunds> {
  let stateLedger: number | null = null
  let partial = false
  const seen = (row: StateRow | null) => {
    if (row && (stateLedger === null || row.ledger > stateLedger)) stateLedger = row.ledger
  }
  const [supplyRow, feeRow, protocolFeeRow, countRow] = await Promise.all([
    reader.stateAt(vault.address, YIELD_STATE.totalSupply, ledger),
    reader.stateAt(vault.address, YIELD_STATE.vaultFee, ledger),
    reader.stateAt(vault.address, YIELD_STATE.protocolFee, ledger),
    reader.stateAt(vault.address, YIELD_STATE.totalAssets, ledger),
  ])
  for (const row of [supplyRow, feeRow, protocolFeeRow, countRow]) seen(row)
  // `TotalSupply` is written by the first mint into the instance entry, which every write of the
  // vault rewrites whole: an instance seen without it has issued nothing.
  const instanceSeen = supplyRow !== null || feeRow !== null || protocolFeeRow !== null || countRow !== null
  const totalSupply = supplyRow ? intOf(supplyRow) : instanceSeen || complete ? 0n : null
  if (totalSupply === null) partial = true
  // A persistent entry the store never saw: absent on chain when it holds the vault's whole history.
  const absent = <T>(zero: T): T | null => (complete ? zero : null)
  const vaultFeeBps = intOf(feeRow)
  const descriptions = new Map(network.contracts.yieldprotocol.map((c) => [c.address, c]))
  const assets: AssetFunds[] = []
  for (const set of await assetSets(reader, network, vault, ledger, countRow, seen)) {
    const idleRow = await reader.stateAt(set.asset, YIELD_STATE.assetBalance(vault.address), ledger)
    seen(idleRow)
    // No balance entry in the asset's contract: the vault holds none of it, if the store would have seen one.
    const idle = idleRow ? big(JSON.parse(idleRow.value)) : absent(0n)
    const strategies = await Promise.all(
      set.strategies.map(async (ref): Promise<StrategyFunds> => {
        const [posRow, reservesRow, configRow, reportRow] = await Promise.all([
          reader.stateAt(ref.address, YIELD_STATE.vaultPos(vault.address), ledger),
          reader.stateAt(ref.address, YIELD_STATE.reserves, ledger),
          reader.stateAt(ref.address, YIELD_STATE.strategyConfig, ledger),
          reader.stateAt(vault.address, YIELD_STATE.report(ref.address), ledger),
        ])
        for (const row of [posRow, reservesRow, reportRow]) seen(row)
        const config: unknown = configRow ? JSON.parse(configRow.value) : null
        const described = descriptions.get(ref.address)
        const pool =
          isRecord(config) && typeof config.pool === 'string' ? config.pool : (described?.pool ?? null)
        const asset =
          isRecord(config) && typeof config.asset === 'string'
            ? config.asset
            : (described?.asset ?? set.asset)
        const shares = posRow ? big(JSON.parse(posRow.value)) : absent(0n)
        const reserves = parseReserves(reservesRow)
        let bRate: bigint | null = null
        let bRateLedger: number | null = null
        if (
          shares !== null &&
          shares !== 0n &&
          reserves &&
          reserves.totalShares !== 0n &&
          reserves.totalBTokens !== 0n &&
          pool
        ) {
          // The pool's `ResData(asset)`, as the lending module keeps it.
          const resData = await reader.stateAt(pool, `ResData/${asset}`, ledger)
          seen(resData)
          const v: unknown = resData ? JSON.parse(resData.value) : null
          bRate = isRecord(v) ? big(v.b_rate) : null
          bRateLedger = bRate === null ? null : resData!.ledger
        }
        const balance = shares === null ? null : strategyBalance(shares, reserves, bRate)
        // `get_report` reads an absent Report as all zeros.
        const report = reportRow
          ? parseReport(reportRow)
          : absent({ gainsOrLosses: 0n, lockedFee: 0n, prevBalance: 0n })
        // Without the vault's fee, the lock is known only when there are no gains to lock.
        const gains =
          balance === null || report === null
            ? null
            : report.gainsOrLosses + balance - (report.prevBalance === 0n ? balance : report.prevBalance)
        const locked =
          balance === null || gains === null || report === null
            ? null
            : vaultFeeBps !== null
              ? reportAndLock(report, balance, vaultFeeBps).lockedFee
              : gains > 0n
                ? null
                : report.lockedFee
        return {
          address: ref.address,
          name: ref.name,
          paused: ref.paused,
          pool,
          shares,
          reserves,
          bRate,
          bRateLedger,
          balance,
          lockedFee: locked,
          invested: balance === null || locked === null ? null : balance - locked,
        }
      }),
    )
    let invested: bigint | null = 0n
    for (const s of strategies)
      invested = invested === null || s.invested === null ? null : invested + s.invested
    if (invested === null || idle === null || strategies.some((s) => s.shares === null)) partial = true
    assets.push({
      asset: set.asset,
      idle,
      invested,
      total: invested === null || idle === null ? null : idle + invested,
      strategies,
    })
  }
  return {
    vault: vault.address,
    totalSupply,
    vaultFeeBps,
    protocolFeeBps: intOf(protocolFeeRow),
    assets,
    stateLedger,
    partial,
  }
}
