import type { xdr } from '@stellar/stellar-sdk'
import { divCeil, divFloor, RequestType, SCALAR_12 } from '../blend/math.ts'
import type { Blend } from '../blend/protocol.ts'
import type { SacEvents } from '../ledger/sac-events.ts'
import { buildAddressVal, buildContractAddress, buildI128, type ScVal } from '../ledger/scval.ts'
import type { WorldState } from '../world/world-state.ts'
import {
  buildReportKey,
  buildReportValue,
  buildSacBalanceKey,
  buildSacBalanceValue,
  buildStrategyEvent,
  buildStrategyInstanceStorage,
  buildVaultBalanceKey,
  buildVaultInstanceStorage,
  buildVaultPosKey,
  type ReportValue,
  type StrategyConfigValue,
  type StrategyReservesValue,
  type VaultSettings,
} from './layout.ts'
import type { TxChanges } from './tx-changes.ts'

/**
 * A DeFindex vault and its Blend strategy: their state, and the strategy's side of a call
 * (apps/contracts/strategies/blend/src/{lib,reserves,utils,blend_pool}.rs) with the contract's
 * fixed-point rounding. The vault's own functions are in calls-vault.ts.
 */

export interface Holding {
  holder: xdr.ScAddressWire
  amount: bigint
  modified: number
}

export interface VaultState {
  index: number
  id: Uint8Array
  strategy: Uint8Array
  settings: VaultSettings
  config: StrategyConfigValue
  keeper: xdr.ScAddressWire
  /** The Blend pool (index in the devnet's pools) and reserve the strategy lends into. */
  pool: number
  reserve: number
  /** The strategy's user number in its pool. */
  user: number
  assetSac: SacEvents
  blndSac: SacEvents
  /** `TotalSupply`, null until the first mint writes it. */
  totalSupply: bigint | null
  instanceModified: number
  /** df-token `Balance` entries by holder (hex of the address bytes). */
  balances: Map<string, Holding>
  report: ReportValue | null
  reportModified: number
  /** `VaultPos(vault)` (strategy shares), null until written. */
  vaultPos: bigint | null
  vaultPosModified: number
  /** `Reserves`, null until the first deposit writes it. */
  reserves: StrategyReservesValue | null
  strategyModified: number
  /** SAC `Balance` entries of the vault and the strategy, by `${sac hex}:${holder hex}`. */
  sacBalances: Map<string, { amount: bigint; modified: number }>
}

export interface Wasm {
  vault: Uint8Array
  strategy: Uint8Array
}

/** One call in progress: its changes, its events, and the failures that undo it. */
export interface Call {
  w: WorldState
  v: VaultState
  tx: TxChanges
  events: xdr.ContractEventWire[]
}

/** A contract trap: the transaction fails and changes nothing. */
export class Trap extends Error {}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const mulFloor = (x: bigint, y: bigint, d: bigint) => divFloor(x * y, d)
const mulCeil = (x: bigint, y: bigint, d: bigint) => divCeil(x * y, d)

export function vaultAddress(v: VaultState): xdr.ScAddressWire {
  return buildContractAddress(v.id)
}

export function strategyAddress(v: VaultState): xdr.ScAddressWire {
  return buildContractAddress(v.strategy)
}

export function holderKey(holder: xdr.ScAddressWire): string {
  return holder.type === 0
    ? `g${hex(holder.accountId.ed25519)}`
    : holder.type === 1
      ? `c${hex(holder.contractId)}`
      : ''
}

// ---------------------------------------------------------------------------------------------
// Strategy arithmetic (reserves.rs, utils.rs)

export function sharesToUnderlying(shares: bigint, r: StrategyReservesValue): bigint {
  if (r.totalShares === 0n || r.totalBTokens === 0n) return 0n
  return mulFloor(mulFloor(shares, r.totalBTokens, r.totalShares), r.bRate, SCALAR_12)
}

const bTokensToSharesDown = (r: StrategyReservesValue, amount: bigint) =>
  r.totalShares === 0n || r.totalBTokens === 0n ? amount : mulFloor(amount, r.totalShares, r.totalBTokens)
const bTokensToSharesUp = (r: StrategyReservesValue, amount: bigint) =>
  r.totalShares === 0n || r.totalBTokens === 0n ? amount : mulCeil(amount, r.totalShares, r.totalBTokens)

/** `get_strategy_reserve_updated`: the stored reserves with `b_rate` from the pool's `get_reserve` (accrued now). */
export function updatedReserves(blend: Blend, w: WorldState, v: VaultState): StrategyReservesValue {
  const stored = v.reserves ?? { totalShares: 0n, totalBTokens: 0n, bRate: 0n }
  return { ...stored, bRate: blend.loadReserve(w, v.pool, v.reserve).bRate }
}

/** `balance(vault)`: 0 without shares (the pool is then not asked), else the shares' underlying. */
export function strategyBalance(blend: Blend, w: WorldState, v: VaultState): bigint {
  const shares = v.vaultPos ?? 0n
  return shares > 0n ? sharesToUnderlying(shares, updatedReserves(blend, w, v)) : 0n
}

// ---------------------------------------------------------------------------------------------
// Writes

export function vaultInstance(v: VaultState): [ScVal, ScVal][] {
  return buildVaultInstanceStorage(v.settings, v.totalSupply)
}

export function setTotalSupply(c: Call, wasm: Wasm, next: bigint): void {
  const before = { storage: vaultInstance(c.v), modified: c.v.instanceModified }
  c.v.totalSupply = next
  c.v.instanceModified = c.w.sequence
  c.tx.writeInstance(c.v.id, wasm.vault, before, vaultInstance(c.v))
}

export function setBalance(c: Call, holder: xdr.ScAddressWire, amount: bigint): void {
  const key = holderKey(holder)
  const held = c.v.balances.get(key)
  const keyVal = buildVaultBalanceKey(holder)
  c.tx.write(
    `balance:${key}`,
    c.v.id,
    keyVal,
    held ? { val: buildI128(held.amount), modified: held.modified } : null,
    buildI128(amount),
  )
  c.v.balances.set(key, { holder, amount, modified: c.w.sequence })
}

export function setReport(c: Call, r: ReportValue): void {
  const { v } = c
  c.tx.write(
    'report',
    v.id,
    buildReportKey(v.strategy),
    v.report ? { val: buildReportValue(v.report), modified: v.reportModified } : null,
    buildReportValue(r),
  )
  v.report = { ...r }
  v.reportModified = c.w.sequence
}

/** `get_report`: the stored report, or zeros when the strategy has none yet. */
export function currentReport(v: VaultState): ReportValue {
  return v.report ? { ...v.report } : { prevBalance: 0n, gainsOrLosses: 0n, lockedFee: 0n }
}

function setReserves(c: Call, wasm: Wasm, r: StrategyReservesValue): void {
  const { v } = c
  const before = {
    storage: buildStrategyInstanceStorage(v.config, v.keeper, v.reserves),
    modified: v.strategyModified,
  }
  v.reserves = { ...r }
  v.strategyModified = c.w.sequence
  c.tx.writeInstance(
    v.strategy,
    wasm.strategy,
    before,
    buildStrategyInstanceStorage(v.config, v.keeper, v.reserves),
  )
}

function setVaultPos(c: Call, shares: bigint): void {
  const { v } = c
  c.tx.write(
    'vaultpos',
    v.strategy,
    buildVaultPosKey(v.id),
    v.vaultPos === null ? null : { val: buildI128(v.vaultPos), modified: v.vaultPosModified },
    buildI128(shares),
  )
  v.vaultPos = shares
  v.vaultPosModified = c.w.sequence
}

/** A SAC balance change of the vault or the strategy (a contract holder): its `Balance` entry on the SAC. */
export function moveSac(c: Call, sac: Uint8Array, holder: Uint8Array, delta: bigint): void {
  const key = `${hex(sac)}:${hex(holder)}`
  const held = c.v.sacBalances.get(key)
  const next = (held?.amount ?? 0n) + delta
  // The asset contract refuses to spend more than the balance.
  if (next < 0n) throw new Trap('balance is not sufficient to spend')
  c.tx.write(
    `sac:${key}`,
    sac,
    buildSacBalanceKey(holder),
    held ? { val: buildSacBalanceValue(held.amount), modified: held.modified } : null,
    buildSacBalanceValue(next),
  )
  c.v.sacBalances.set(key, { amount: next, modified: c.w.sequence })
}

export function sacBalance(v: VaultState, sac: Uint8Array, holder: Uint8Array): bigint {
  return v.sacBalances.get(`${hex(sac)}:${hex(holder)}`)?.amount ?? 0n
}

/** A transfer of the vault's asset between two parties, with the SAC balances of the contracts in it. */
export function transferAsset(c: Call, from: xdr.ScAddressWire, to: xdr.ScAddressWire, amount: bigint): void {
  c.events.push(c.v.assetSac.transfer(from, to, amount))
  if (from.type === 1) moveSac(c, c.v.config.asset, from.contractId, -amount)
  if (to.type === 1) moveSac(c, c.v.config.asset, to.contractId, amount)
}

function poolSubmit(c: Call, blend: Blend, type: number, amount: bigint, to: xdr.ScAddressWire): void {
  const tx = blend.contractSubmit(c.w, c.v.pool, c.v.user, [{ reserve: c.v.reserve, amount, type }], to)
  if (!tx.successful) throw new Trap('the pool refused the submit')
  c.events.push(...tx.events)
  c.tx.append(tx.changes)
}

// ---------------------------------------------------------------------------------------------
// The strategy's functions

/** `deposit(amount, from = vault)`: supplies to the pool, mints strategy shares; returns the vault's underlying. */
export function strategyDeposit(c: Call, blend: Blend, wasm: Wasm, amount: bigint): bigint {
  const { v } = c
  if (amount <= 0n) throw new Trap('OnlyPositiveAmountAllowed')
  const r = updatedReserves(blend, c.w, v)
  // calculate_optimal_deposit_amount
  const bMinted = mulFloor(amount, SCALAR_12, r.bRate)
  let optimalB = bMinted
  if (r.totalShares !== 0n) {
    const sharesMinted = bTokensToSharesDown(r, bMinted)
    if (sharesMinted === 0n) throw new Trap('InvalidSharesMinted')
    optimalB = mulCeil(sharesMinted, r.totalBTokens, r.totalShares)
  }
  if (optimalB <= 0n) throw new Trap('BTokensAmountBelowMin')
  const optimal = mulCeil(optimalB, r.bRate, SCALAR_12)
  const vault = vaultAddress(v)
  const strategy = strategyAddress(v)
  transferAsset(c, vault, strategy, amount)
  if (amount !== optimal) transferAsset(c, strategy, vault, amount - optimal)
  poolSubmit(c, blend, RequestType.Supply, optimal, vault)
  moveSac(c, v.config.asset, v.strategy, -optimal)
  // reserves::deposit
  const old = v.vaultPos ?? 0n
  const minted = bTokensToSharesDown(r, optimalB)
  if (minted <= 0n) throw new Trap('InvalidSharesMinted')
  let vaultMinted = minted
  if (r.totalShares === 0n) {
    // The first 1,000 strategy shares stay unowned, as the vault's first 1,000 df-tokens do.
    if (minted <= 1000n) throw new Trap('InvalidSharesMinted')
    vaultMinted = minted - 1000n
  }
  const next = {
    totalShares: r.totalShares + minted,
    totalBTokens: r.totalBTokens + optimalB,
    bRate: r.bRate,
  }
  setReserves(c, wasm, next)
  setVaultPos(c, old + vaultMinted)
  c.events.push(
    buildStrategyEvent(v.strategy, 'deposit', { amount: buildI128(optimal), from: buildAddressVal(vault) }),
  )
  return sharesToUnderlying(old + vaultMinted, next)
}

/** `withdraw(amount, from = vault, to)`: the pool pays `to` directly; returns the vault's remaining underlying. */
export function strategyWithdraw(
  c: Call,
  blend: Blend,
  wasm: Wasm,
  amount: bigint,
  to: xdr.ScAddressWire,
): bigint {
  const { v } = c
  if (amount <= 0n) throw new Trap('OnlyPositiveAmountAllowed')
  const r = updatedReserves(blend, c.w, v)
  if (r.totalShares === 0n) throw new Trap('ArithmeticError')
  // calculate_optimal_withdraw_amount
  const bBurnt = mulCeil(amount, SCALAR_12, r.bRate)
  const sharesBurnt = bTokensToSharesUp(r, bBurnt)
  const optimalB = mulFloor(sharesBurnt, r.totalBTokens, r.totalShares)
  const optimal = mulFloor(optimalB, r.bRate, SCALAR_12)
  poolSubmit(c, blend, RequestType.Withdraw, optimal, to)
  if (to.type === 1 && Buffer.from(to.contractId).equals(Buffer.from(v.id)))
    moveSac(c, v.config.asset, v.id, optimal)
  // reserves::withdraw
  if (optimalB <= 0n) throw new Trap('BTokensAmountBelowMin')
  const shareAmount = bTokensToSharesUp(r, optimalB)
  if (r.totalShares < shareAmount || r.totalBTokens < optimalB) throw new Trap('InsufficientBalance')
  const shares = v.vaultPos ?? 0n
  if (shareAmount > shares) throw new Trap('InsufficientBalance')
  const next = {
    totalShares: r.totalShares - shareAmount,
    totalBTokens: r.totalBTokens - optimalB,
    bRate: r.bRate,
  }
  setReserves(c, wasm, next)
  setVaultPos(c, shares - shareAmount)
  c.events.push(
    buildStrategyEvent(v.strategy, 'withdraw', {
      amount: buildI128(optimal),
      from: buildAddressVal(vaultAddress(v)),
    }),
  )
  return sharesToUnderlying(shares - shareAmount, next)
}
