import type { xdr } from '@stellar/stellar-sdk'
import {
  buildContractDataEntry,
  buildContractDataKey,
  buildVaultKey,
  buildVaultsInfoKey,
  buildVaultsInfoValue,
  buildVaultValue,
} from './contract-layout.ts'
import { buildAccountAddress, buildAddressVal, buildSymbol, buildU128 } from './scval.ts'
import {
  type DenomState,
  MIN_COL_RATE,
  MIN_DEBT_CREATION,
  OPENING_COL_RATE,
  RATE_ONE,
  SECONDS_PER_YEAR,
  type SimTx,
  STROOPS,
  type VaultRecord,
  vaultMapKey,
  type WorldState,
} from './world-state.ts'

/** Vault-protocol behaviour: every action mutates the world and returns the transaction that did it. */

const TRAP_RATE = 0.02

/** The stability fee accrues into debt_rate whenever a vault of the denomination is touched. */
function accrueDebtRate(d: DenomState, nowS: number): void {
  const elapsed = BigInt(nowS - d.lastAccrualS)
  if (elapsed > 0n) {
    d.debtRate += (d.debtRate * BigInt(d.feeBps) * elapsed) / (10_000n * SECONDS_PER_YEAR)
    d.lastAccrualS = nowS
  }
}

export function computeDebt(normalisedDebt: bigint, debtRate: bigint): bigint {
  return (normalisedDebt * debtRate + RATE_ONE - 1n) / RATE_ONE
}

/** Collateral ratio with 7 decimals; collateral is XLM, debt is in denomination units. */
export function computeCollateralRatio(
  w: WorldState,
  collateral: bigint,
  debt: bigint,
  d: DenomState,
): bigint {
  if (debt === 0n) return 1n << 64n
  return (collateral * w.xlmPrice * STROOPS) / (debt * d.price)
}

function collateralForRatio(w: WorldState, debt: bigint, d: DenomState, ratio: bigint): bigint {
  const denominator = w.xlmPrice * STROOPS
  return (debt * d.price * ratio + denominator - 1n) / denominator
}

export function buildVaultEntry(w: WorldState, v: VaultRecord, lastModified: number): xdr.LedgerEntryWire {
  const d = w.denoms[v.denom]!
  const value = buildVaultValue({
    account: buildAccountAddress(w.ids.accountKey(v.account)),
    denomination: d.name,
    totalCollateral: v.collateral,
    totalDebt: v.debt,
  })
  return buildContractDataEntry(w.ids.vaultContract, vaultKey(w, v), value, lastModified)
}

function vaultKey(w: WorldState, v: VaultRecord) {
  return buildVaultKey(buildAccountAddress(w.ids.accountKey(v.account)), w.denoms[v.denom]!.name)
}

export function buildVaultsInfoEntry(w: WorldState, d: DenomState): xdr.LedgerEntryWire {
  const value = buildVaultsInfoValue({
    denomination: d.name,
    debtRate: d.debtRate,
    minColRate: MIN_COL_RATE,
    minDebtCreation: MIN_DEBT_CREATION,
    openingColRate: OPENING_COL_RATE,
    totalCol: d.totalCol,
    totalDebt: d.totalDebt,
    totalVaults: d.totalVaults,
  })
  return buildContractDataEntry(w.ids.vaultContract, buildVaultsInfoKey(d.name), value, d.lastModified)
}

/** The VaultsInfo entry every denomination starts with, written in the first ledger. */
export function createVaultsInfoTx(w: WorldState, d: DenomState): SimTx {
  d.lastModified = w.sequence
  return {
    source: w.ids.oracleAdmin,
    contract: w.ids.vaultContract,
    fn: 'create_currency',
    args: [buildSymbol(d.name)],
    successful: true,
    changes: [{ type: 0, created: buildVaultsInfoEntry(w, d) }],
    events: [],
  }
}

type VaultChange = { kind: 'create' | 'update' | 'remove'; before: xdr.LedgerEntryWire | null }

/** Applies one change to a vault and its VaultsInfo, with the entry changes the ledger meta records. */
function commitVault(w: WorldState, v: VaultRecord, change: VaultChange, infoBefore: xdr.LedgerEntryWire) {
  const d = w.denoms[v.denom]!
  const changes: xdr.LedgerEntryChangeWire[] = []
  if (change.kind === 'create') {
    v.lastModified = w.sequence
    changes.push({ type: 0, created: buildVaultEntry(w, v, w.sequence) })
  } else if (change.kind === 'update') {
    v.lastModified = w.sequence
    changes.push({ type: 3, state: change.before! }, { type: 1, updated: buildVaultEntry(w, v, w.sequence) })
  } else {
    changes.push(
      { type: 3, state: change.before! },
      { type: 2, removed: buildContractDataKey(w.ids.vaultContract, vaultKey(w, v)) },
    )
  }
  d.lastModified = w.sequence
  changes.push({ type: 3, state: infoBefore }, { type: 1, updated: buildVaultsInfoEntry(w, d) })
  return changes
}

function removeOpenVault(w: WorldState, v: VaultRecord): void {
  const last = w.open.pop()!
  if (last !== v) {
    w.open[v.slot] = last
    last.slot = v.slot
  }
  w.vaults.delete(vaultMapKey(v.account, v.denom))
}

type Action = 'open' | 'deposit' | 'withdraw' | 'borrow' | 'repay' | 'close'

const FUNCTION_NAMES: Record<Action, string> = {
  open: 'new_vault',
  deposit: 'increase_collateral',
  withdraw: 'withdraw_collateral',
  borrow: 'increase_debt',
  repay: 'pay_debt',
  close: 'pay_debt',
}

function pickAction(w: WorldState, existing: VaultRecord | undefined): Action {
  if (!existing) return 'open'
  const roll = w.rng.nextInt(100)
  if (roll < 25) return 'deposit'
  if (roll < 40) return 'withdraw'
  if (roll < 60) return 'borrow'
  if (roll < 85) return 'repay'
  return 'close'
}

/** One account acts on one of its vaults: open, add or withdraw collateral, borrow, repay or close. */
export function simulateAccountAction(w: WorldState, account: number): SimTx {
  const { rng } = w
  const prefs = w.preferences[account]!
  let denom = rng.nextInt(3)
  while ((prefs & (1 << denom)) === 0) denom = (denom + 1) % 3
  const d = w.denoms[denom]!
  const v = w.vaults.get(vaultMapKey(account, denom))
  const action = pickAction(w, v)
  const scale = BigInt(w.scale[account]!)
  const debtNow = v ? computeDebt(v.debt, d.debtRate) : 0n
  let amount = 0n
  let valid = true

  switch (action) {
    case 'open':
      amount = BigInt(rng.nextRange(100, 5_000)) * scale * STROOPS
      break
    case 'deposit':
      amount = (v!.collateral * BigInt(rng.nextRange(5, 60))) / 100n + STROOPS
      break
    case 'withdraw':
      amount = (v!.collateral * BigInt(rng.nextRange(2, 30))) / 100n
      valid = computeCollateralRatio(w, v!.collateral - amount, debtNow, d) >= OPENING_COL_RATE
      break
    case 'borrow':
      amount = (debtNow * BigInt(rng.nextRange(5, 40))) / 100n + STROOPS
      valid = computeCollateralRatio(w, v!.collateral, debtNow + amount, d) >= OPENING_COL_RATE
      break
    case 'repay':
      amount = (debtNow * BigInt(rng.nextRange(5, 60))) / 100n
      break
    case 'close':
      amount = debtNow
      break
  }
  const tx: SimTx = {
    source: w.ids.accountKey(account),
    contract: w.ids.vaultContract,
    fn: FUNCTION_NAMES[action],
    args: [
      buildAddressVal(buildAccountAddress(w.ids.accountKey(account))),
      buildSymbol(d.name),
      buildU128(amount),
    ],
    successful: false,
    changes: [],
    events: [],
  }
  // Some calls trap (a contract error) and change nothing, so indexers are tested to skip them.
  if (!valid || rng.chance(TRAP_RATE)) return tx

  const infoBefore = buildVaultsInfoEntry(w, d)
  accrueDebtRate(d, w.closeTime)
  let change: VaultChange
  if (action === 'open') {
    const ratio = BigInt(rng.nextRange(12_000_000, 35_000_000))
    const normalised = (amount * RATE_ONE + d.debtRate - 1n) / d.debtRate
    const record: VaultRecord = {
      account,
      denom,
      collateral: collateralForRatio(w, amount, d, ratio),
      debt: normalised,
      lastModified: w.sequence,
      slot: w.open.length,
    }
    w.vaults.set(vaultMapKey(account, denom), record)
    w.open.push(record)
    d.totalVaults += 1n
    d.totalCol += record.collateral
    d.totalDebt += record.debt
    tx.args[2] = buildU128(record.collateral)
    tx.args.push(buildU128(amount))
    tx.successful = true
    tx.changes = commitVault(w, record, { kind: 'create', before: null }, infoBefore)
    return tx
  }
  const vault = v!
  const before = buildVaultEntry(w, vault, vault.lastModified)
  const oldCollateral = vault.collateral
  const oldDebt = vault.debt
  if (action === 'deposit') vault.collateral += amount
  else if (action === 'withdraw') vault.collateral -= amount
  else if (action === 'borrow') vault.debt += (amount * RATE_ONE + d.debtRate - 1n) / d.debtRate
  else if (action === 'repay') vault.debt -= (amount * RATE_ONE) / d.debtRate
  if (action === 'close' || vault.debt <= 0n) {
    change = { kind: 'remove', before }
    d.totalVaults -= 1n
    d.totalCol -= oldCollateral
    d.totalDebt -= oldDebt
    removeOpenVault(w, vault)
  } else {
    change = { kind: 'update', before }
    d.totalCol += vault.collateral - oldCollateral
    d.totalDebt += vault.debt - oldDebt
  }
  tx.successful = true
  tx.changes = commitVault(w, vault, change, infoBefore)
  return tx
}

/** A liquidator closes a vault whose collateral ratio fell below the minimum. */
export function simulateLiquidation(w: WorldState, vault: VaultRecord): SimTx | null {
  const d = w.denoms[vault.denom]!
  if (computeCollateralRatio(w, vault.collateral, computeDebt(vault.debt, d.debtRate), d) >= MIN_COL_RATE) {
    return null
  }
  const infoBefore = buildVaultsInfoEntry(w, d)
  accrueDebtRate(d, w.closeTime)
  const before = buildVaultEntry(w, vault, vault.lastModified)
  d.totalVaults -= 1n
  d.totalCol -= vault.collateral
  d.totalDebt -= vault.debt
  removeOpenVault(w, vault)
  return {
    source: w.ids.liquidator,
    contract: w.ids.vaultContract,
    fn: 'liquidate',
    args: [
      buildAddressVal(buildAccountAddress(w.ids.liquidator)),
      buildAddressVal(buildAccountAddress(w.ids.accountKey(vault.account))),
      buildSymbol(d.name),
    ],
    successful: true,
    changes: commitVault(w, vault, { kind: 'remove', before }, infoBefore),
    events: [],
  }
}
