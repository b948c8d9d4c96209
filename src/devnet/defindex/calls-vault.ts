import type { xdr } from '@stellar/stellar-sdk'
import type { Blend } from '../blend/protocol.ts'
import {
  buildAddressVal,
  buildBool,
  buildContractAddress,
  buildI128,
  buildStruct,
  buildSymbol,
  buildVec,
} from '../ledger/scval.ts'
import {
  buildDfTokenBurn,
  buildDfTokenMint,
  buildDfTokenTransfer,
  buildManagedFunds,
  buildReportValue,
  buildStrategyEvent,
  buildVaultEvent,
  type ReportValue,
} from './layout.ts'
import {
  type Call,
  currentReport,
  holderKey,
  moveSac,
  sacBalance,
  setBalance,
  setReport,
  setTotalSupply,
  sharesToUnderlying,
  strategyAddress,
  strategyBalance,
  strategyDeposit,
  strategyWithdraw,
  Trap,
  transferAsset,
  updatedReserves,
  vaultAddress,
  type Wasm,
} from './state.ts'

/**
 * The vault's functions (apps/contracts/vault/src/{lib,deposit,funds,report,strategies,
 * investment}.rs), for a vault of one asset with one Blend strategy. Each runs inside a `Call`
 * and throws `Trap` where the contract panics or returns an error.
 */

const MINIMUM_LIQUIDITY = 1000n
const SCALAR_BPS = 10_000n

/** `fetch_total_managed_funds(lock_fees = true)`'s one allocation. */
export interface Managed {
  idle: bigint
  invested: bigint
}

/** `Report::report` then `lock_fee(vault_fee)`. */
function reportAndLock(r: ReportValue, balance: bigint, feeBps: number): ReportValue {
  const prev = r.prevBalance === 0n ? balance : r.prevBalance
  const next = { ...r, gainsOrLosses: r.gainsOrLosses + balance - prev, prevBalance: balance }
  if (next.gainsOrLosses > 0n) {
    next.lockedFee += (next.gainsOrLosses * BigInt(feeBps)) / SCALAR_BPS
    next.gainsOrLosses = 0n
  }
  return next
}

/** `fetch_strategy_invested_funds(lock_fees = true)`: reports, locks the fee, writes `Report`. */
function strategyInvestedLocking(c: Call, blend: Blend): bigint {
  const balance = strategyBalance(blend, c.w, c.v)
  const report = reportAndLock(currentReport(c.v), balance, c.v.settings.vaultFeeBps)
  setReport(c, report)
  if (report.lockedFee > balance) throw new Trap('WrongLockedFees')
  return balance - report.lockedFee
}

export function totalManaged(c: Call, blend: Blend): Managed {
  const idle = sacBalance(c.v, c.v.config.asset, c.v.id)
  return { idle, invested: strategyInvestedLocking(c, blend) }
}

function managedFunds(c: Call, m: Managed) {
  return buildManagedFunds({
    asset: c.v.config.asset,
    strategy: c.v.strategy,
    idle: m.idle,
    invested: m.invested,
    paused: false,
  })
}

function mint(c: Call, wasm: Wasm, to: xdr.ScAddressWire, amount: bigint): void {
  const held = c.v.balances.get(holderKey(to))?.amount ?? 0n
  setBalance(c, to, held + amount)
  setTotalSupply(c, wasm, (c.v.totalSupply ?? 0n) + amount)
  c.events.push(buildDfTokenMint(c.v.id, to, amount))
}

/** `invest_in_strategy`: the strategy's deposit, then `Report` with the gains it shows. */
function investInStrategy(c: Call, blend: Blend, wasm: Wasm, amount: bigint): ReportValue {
  const report = currentReport(c.v)
  const funds = strategyDeposit(c, blend, wasm, amount)
  const next = { ...report, gainsOrLosses: funds - report.prevBalance - amount, prevBalance: funds }
  setReport(c, next)
  return next
}

/** `distribute_strategy_fees`: unwinds the locked fee to the vault and pays both receivers. */
function distributeStrategyFees(c: Call, blend: Blend, wasm: Wasm): bigint {
  const fees = currentReport(c.v).lockedFee
  if (fees <= 0n) return fees
  const protocolFee = (fees * BigInt(c.v.settings.protocolFeeBps)) / SCALAR_BPS
  const vaultFee = fees - protocolFee
  const remaining = strategyWithdraw(c, blend, wasm, fees, vaultAddress(c.v))
  transferAsset(c, vaultAddress(c.v), c.v.settings.feeReceiver, vaultFee)
  transferAsset(c, vaultAddress(c.v), c.v.settings.protocolFeeReceiver, protocolFee)
  setReport(c, { ...currentReport(c.v), prevBalance: remaining, lockedFee: 0n })
  return fees
}

/** `deposit([amount], [amount], from, invest = true)`. */
export function deposit(c: Call, blend: Blend, wasm: Wasm, from: xdr.ScAddressWire, amount: bigint): void {
  if (amount <= 0n) throw new Trap('AmountNotAllowed')
  const m = totalManaged(c, blend)
  const supply = c.v.totalSupply ?? 0n
  const total = m.idle + m.invested
  if (supply !== 0n && total === 0n) throw new Trap('ArithmeticError')
  const shares = supply === 0n ? amount : (supply * amount) / total
  transferAsset(c, from, vaultAddress(c.v), amount)
  if (shares <= 0n) throw new Trap('InsufficientAmount')
  if (supply === 0n) {
    if (shares <= MINIMUM_LIQUIDITY) throw new Trap('InsufficientAmount')
    mint(c, wasm, vaultAddress(c.v), MINIMUM_LIQUIDITY)
    mint(c, wasm, from, shares - MINIMUM_LIQUIDITY)
  } else mint(c, wasm, from, shares)
  c.events.push(
    buildVaultEvent(c.v.id, 'deposit', {
      amounts: buildVec([buildI128(amount)]),
      depositor: buildAddressVal(from),
      df_tokens_minted: buildI128(shares),
      total_managed_funds_before: managedFunds(c, m),
      total_supply_before: buildI128(supply),
    }),
  )
  // generate_investment_allocations: nothing is invested while the strategy holds nothing.
  if (m.invested > 0n) investInStrategy(c, blend, wasm, amount)
}

/** `withdraw(shares, [0], from)`: idle funds first, then the strategy pays `from` directly. */
export function withdraw(c: Call, blend: Blend, wasm: Wasm, from: xdr.ScAddressWire, shares: bigint): bigint {
  if (shares <= 0n) throw new Trap('AmountNotAllowed')
  const m = totalManaged(c, blend)
  const supply = c.v.totalSupply ?? 0n
  if (shares > supply) throw new Trap('AmountOverTotalSupply')
  const held = c.v.balances.get(holderKey(from))?.amount ?? 0n
  if (held < shares) throw new Trap('InsufficientBalance')
  setBalance(c, from, held - shares)
  setTotalSupply(c, wasm, supply - shares)
  c.events.push(buildDfTokenBurn(c.v.id, from, shares))
  const requested = ((m.idle + m.invested) * shares) / supply
  let withdrawn = 0n
  if (requested > 0n) {
    if (m.idle >= requested) {
      transferAsset(c, vaultAddress(c.v), from, requested)
      withdrawn = requested
    } else {
      if (m.idle !== 0n) transferAsset(c, vaultAddress(c.v), from, m.idle)
      const unwind = requested - m.idle
      const remaining = strategyWithdraw(c, blend, wasm, unwind, from)
      setReport(c, { ...currentReport(c.v), prevBalance: remaining })
      withdrawn = requested
    }
  }
  c.events.push(
    buildVaultEvent(c.v.id, 'withdraw', {
      amounts_withdrawn: buildVec([buildI128(withdrawn)]),
      df_tokens_burned: buildI128(shares),
      total_managed_funds_before: managedFunds(c, m),
      total_supply_before: buildI128(supply),
      withdrawer: buildAddressVal(from),
    }),
  )
  return withdrawn
}

/** df-token `transfer(from, to, amount)`. */
export function transferShares(
  c: Call,
  from: xdr.ScAddressWire,
  to: xdr.ScAddressWire,
  amount: bigint,
): void {
  if (amount < 0n) throw new Trap('negative amount is not allowed')
  const held = c.v.balances.get(holderKey(from))?.amount ?? 0n
  if (held < amount) throw new Trap('InsufficientBalance')
  setBalance(c, from, held - amount)
  setBalance(c, to, (c.v.balances.get(holderKey(to))?.amount ?? 0n) + amount)
  c.events.push(buildDfTokenTransfer(c.v.id, from, to, amount))
}

/** `rebalance(manager, [Invest(strategy, amount)])`. */
export function rebalanceInvest(c: Call, blend: Blend, wasm: Wasm, amount: bigint): void {
  if (amount <= 0n) throw new Trap('AmountNotAllowed')
  const report = investInStrategy(c, blend, wasm, amount)
  distributeStrategyFees(c, blend, wasm)
  c.events.push(
    buildVaultEvent(c.v.id, 'rebalance', {
      asset_investments: buildVec([
        buildStruct({
          asset: buildAddressVal(buildContractAddress(c.v.config.asset)),
          // Option<StrategyAllocation>: Some(x) is x itself.
          strategy_allocations: buildVec([
            buildStruct({
              amount: buildI128(amount),
              paused: buildBool(false),
              strategy_address: buildAddressVal(strategyAddress(c.v)),
            }),
          ]),
        }),
      ]),
      rebalance_method: buildSymbol('invest'),
      report: buildReportValue(report),
    }),
  )
}

/** `rebalance(manager, [Unwind(strategy, amount)])`: the strategy pays the vault. */
export function rebalanceUnwind(c: Call, blend: Blend, wasm: Wasm, amount: bigint): void {
  const invested = strategyInvestedLocking(c, blend)
  if (amount <= 0n) throw new Trap('AmountNotAllowed')
  if (amount > invested) throw new Trap('UnwindMoreThanAvailable')
  distributeStrategyFees(c, blend, wasm)
  strategyWithdraw(c, blend, wasm, amount, vaultAddress(c.v))
  const report = { ...currentReport(c.v), prevBalance: invested - amount }
  setReport(c, report)
  c.events.push(
    buildVaultEvent(c.v.id, 'rebalance', {
      call_params: buildVec([
        buildVec([
          buildAddressVal(strategyAddress(c.v)),
          buildI128(amount),
          buildAddressVal(vaultAddress(c.v)),
        ]),
      ]),
      rebalance_method: buildSymbol('unwind'),
      report: buildReportValue(report),
    }),
  )
}

/** `distribute_fees(manager)`: the `dfees` event lists the asset only when something was paid. */
export function distributeFees(c: Call, blend: Blend, wasm: Wasm): void {
  const total = distributeStrategyFees(c, blend, wasm)
  const asset = buildAddressVal(buildContractAddress(c.v.config.asset))
  c.events.push(
    buildVaultEvent(c.v.id, 'dfees', {
      distributed_fees: buildVec(total > 0n ? [buildVec([asset, buildI128(total)])] : []),
    }),
  )
}

/** `report()`: each strategy's balance reported, nothing locked, no event. */
export function reportStrategies(c: Call, blend: Blend): void {
  const balance = strategyBalance(blend, c.w, c.v)
  const r = currentReport(c.v)
  const prev = r.prevBalance === 0n ? balance : r.prevBalance
  setReport(c, { ...r, gainsOrLosses: r.gainsOrLosses + balance - prev, prevBalance: balance })
}

/** `lock_fees(None)`: locks the vault fee on reported gains; writes only a report with gains. */
export function lockFees(c: Call): void {
  const r = currentReport(c.v)
  if (r.gainsOrLosses <= 0n) return
  setReport(c, {
    ...r,
    lockedFee: r.lockedFee + (r.gainsOrLosses * BigInt(c.v.settings.vaultFeeBps)) / SCALAR_BPS,
    gainsOrLosses: 0n,
  })
}

/**
 * The strategy's `harvest(keeper, None)`: claims the pool's BLND emissions for its b-tokens. The
 * reinvestment swaps BLND through Soroswap only above `reward_threshold`; the devnet's threshold is
 * above anything claimed, so the contract's other branch runs: reserves refreshed, not stored.
 */
export function harvest(c: Call, blend: Blend): void {
  const claim = blend.contractClaim(c.w, c.v.pool, c.v.user, c.v.config.claimIds)
  c.events.push(...claim.events)
  c.tx.append(claim.changes)
  const last = claim.events[claim.events.length - 1]!.body.v0.data
  const amountVal = last.type === 16 ? last.vec?.[1] : undefined
  const amount = amountVal?.type === 10 ? (amountVal.i128.hi << 64n) | amountVal.i128.lo : 0n
  if (amount > 0n) moveSac(c, c.v.config.blendToken, c.v.strategy, amount)
  const reserves = updatedReserves(blend, c.w, c.v)
  c.events.push(
    buildStrategyEvent(c.v.strategy, 'harvest', {
      amount: buildI128(amount),
      from: buildAddressVal(c.v.keeper),
      price_per_share: buildI128(sharesToUnderlying(1_000_000_000_000n, reserves)),
    }),
  )
}
