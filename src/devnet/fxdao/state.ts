import type { xdr } from '@stellar/stellar-sdk'
import { buildContractDataEntry, buildInstanceEntry } from '../ledger/contract-layout.ts'
import {
  buildAccountAddress,
  buildAddressVal,
  buildContractAddress,
  buildStruct,
  buildSymbol,
  buildU128,
  type ScVal,
} from '../ledger/scval.ts'
import { type DenomState, STROOPS, type WorldState } from '../world/world-state.ts'
import type { createEntryTracker } from './entry-changes.ts'
import {
  buildCoreStateKey,
  buildCoreStateValue,
  buildCurrencyKey,
  buildCurrencyValue,
  buildOptionalVaultKey,
  buildVaultIndexKey,
  buildVaultKey,
  buildVaultsInfoKey,
  buildVaultsInfoValue,
  buildVaultValue,
  computeVaultIndex,
  type VaultKeyValue,
} from './layout.ts'

/** FxDAO vaults' in-memory state: its entries, the sorted list of each denomination, the open vaults. */

/** FxDAO scales ratios and its fee by 10^7 (tests: min 1.10, opening 1.15, fee 0.5%). */
export const RATIO_ONE = 10_000_000n
/** Minimum collateral ratio (1.10). */
export const MIN_COL_RATE = 11_000_000n
/** Collateral ratio required to open a vault (1.15). */
export const OPENING_COL_RATE = 11_500_000n
/** Smallest debt a vault may be opened with. */
export const MIN_DEBT_CREATION = 100n * STROOPS
/** One-off fee on collateral, scaled by 10^7 (0.5%). */
export const PROTOCOL_FEE = 50_000n

/** One open vault. Its place in its denomination's sorted list gives its `next_key`. */
export interface VaultRecord {
  account: number
  denom: number
  collateral: bigint
  debt: bigint
  index: bigint
  /** The record after this one in the list, or null at the tail. */
  next: VaultRecord | null
  /** lastModifiedLedgerSeq of the Vault and VaultIndex entries. */
  vaultModified: number
  indexModified: number
  /** Last ledger each entry is live; past it, the entry is archived at the next eviction. */
  vaultLiveUntil: number
  indexLiveUntil: number
  vaultArchived: boolean
  indexArchived: boolean
  /** Position in WorldState.open, for O(1) random picks and removal. */
  slot: number
}

/** The key of a vault in `WorldState.vaults`. */
export function vaultMapKey(account: number, denom: number): number {
  return account * 4 + denom
}

/** An account's address. */
export const accountAddress = (w: WorldState, account: number) =>
  buildAccountAddress(w.ids.accountKey(account))
/** The vaults contract's address. */
export const vaultContractAddress = (w: WorldState) => buildContractAddress(w.ids.vaultContract)

/** `calc_fee`: ceil(amount × fee / 10^7). */
export function calcFee(fee: bigint, amount: bigint): bigint {
  return (amount * fee + RATIO_ONE - 1n) / RATIO_ONE
}

/** FxDAO's currency rate: XLM priced in the denomination, 7 decimals. */
export function currencyRate(w: WorldState, d: DenomState): bigint {
  return (w.xlmPrice * RATIO_ONE) / d.price
}

/** `calculate_deposit_ratio`: rate × collateral / debt, scaled by 10^7. */
export function depositRatio(rate: bigint, collateral: bigint, debt: bigint): bigint {
  return (rate * collateral) / debt
}

function vaultKeyValue(w: WorldState, v: VaultRecord): VaultKeyValue {
  return { account: accountAddress(w, v.account), denomination: w.denoms[v.denom]!.name, index: v.index }
}

/** A vault's `Vault` entry. */
export function buildVaultEntry(w: WorldState, v: VaultRecord): xdr.LedgerEntryWire {
  const d = w.denoms[v.denom]!
  const value = buildVaultValue({
    account: accountAddress(w, v.account),
    denomination: d.name,
    index: v.index,
    next: v.next ? vaultKeyValue(w, v.next) : null,
    totalCollateral: v.collateral,
    totalDebt: v.debt,
  })
  return buildContractDataEntry(
    w.ids.vaultContract,
    buildVaultKey(accountAddress(w, v.account), d.name),
    value,
    v.vaultModified,
  )
}

/** A vault's `VaultIndex` entry. */
export function buildVaultIndexEntry(w: WorldState, v: VaultRecord): xdr.LedgerEntryWire {
  const key = buildVaultIndexKey(accountAddress(w, v.account), w.denoms[v.denom]!.name)
  return buildContractDataEntry(w.ids.vaultContract, key, buildU128(v.index), v.indexModified)
}

/** The instance entry: CoreState, Currency(d) and VaultsInfo(d) of every denomination. */
export function buildVaultInstanceEntry(w: WorldState): xdr.LedgerEntryWire {
  const ids = w.ids
  const admin = buildAccountAddress(ids.oracleAdmin)
  const storage: [ScVal, ScVal][] = [
    [
      buildCoreStateKey(),
      buildCoreStateValue({
        admin,
        colToken: buildContractAddress(ids.xlmContract),
        fee: PROTOCOL_FEE,
        oracle: buildContractAddress(ids.oracleContract),
        panicMode: false,
        protocolManager: admin,
        stableIssuer: buildAccountAddress(ids.stableIssuer),
        treasury: buildAccountAddress(ids.treasury),
      }),
    ],
  ]
  w.denoms.forEach((d, i) => {
    storage.push([buildCurrencyKey(d.name), buildCurrencyValue(d.name, ids.debtContracts[i]!, true)])
    storage.push([
      buildVaultsInfoKey(d.name),
      buildVaultsInfoValue({
        denomination: d.name,
        lowest: d.list[0] ? vaultKeyValue(w, d.list[0]) : null,
        minColRate: MIN_COL_RATE,
        minDebtCreation: MIN_DEBT_CREATION,
        openingColRate: OPENING_COL_RATE,
        totalCol: d.totalCol,
        totalDebt: d.totalDebt,
        totalVaults: d.totalVaults,
      }),
    ])
  })
  return buildInstanceEntry(ids.vaultContract, ids.vaultWasm, storage, w.vaultInstanceModified)
}

// ---------------------------------------------------------------------------------------------
// The sorted list

/** First position whose index is greater than `index`: equal indexes go after existing ones (`<=`). */
function insertionPoint(list: VaultRecord[], index: bigint): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]!.index <= index) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A record's position in its sorted list. */
export function positionOf(list: VaultRecord[], v: VaultRecord): number {
  // Among equal indexes the record is found by identity.
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]!.index < v.index) lo = mid + 1
    else hi = mid
  }
  for (let i = lo; i < list.length; i++) if (list[i] === v) return i
  throw new Error('vault missing from its list')
}

/** Takes a record out of its list; returns its predecessor. */
export function unlink(d: DenomState, v: VaultRecord): VaultRecord | null {
  const at = positionOf(d.list, v)
  const prev = at > 0 ? d.list[at - 1]! : null
  if (prev) prev.next = v.next
  d.list.splice(at, 1)
  v.next = null
  return prev
}

/** Inserts a record in its list by index; returns its predecessor. */
export function link(d: DenomState, v: VaultRecord): VaultRecord | null {
  const at = insertionPoint(d.list, v.index)
  const prev = at > 0 ? d.list[at - 1]! : null
  v.next = d.list[at] ?? null
  if (prev) prev.next = v
  d.list.splice(at, 0, v)
  return prev
}

/** The record that will precede a vault of `index` once `moving` has left the list. */
export function prevAfterMove(d: DenomState, index: bigint, moving: VaultRecord | null): VaultRecord | null {
  let at = insertionPoint(d.list, index) - 1
  if (at >= 0 && d.list[at] === moving) at--
  return at >= 0 ? d.list[at]! : null
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping of open vaults

/** Registers an opened vault. */
export function addOpen(w: WorldState, v: VaultRecord): void {
  v.slot = w.open.length
  w.open.push(v)
  w.vaults.set(vaultMapKey(v.account, v.denom), v)
}

/** Forgets a closed vault. */
export function removeOpen(w: WorldState, v: VaultRecord): void {
  const last = w.open.pop()!
  if (last !== v) {
    w.open[v.slot] = last
    last.slot = v.slot
  }
  w.vaults.delete(vaultMapKey(v.account, v.denom))
}

/** A vault not yet in any list. */
export function newRecord(account: number, denom: number, collateral: bigint, debt: bigint): VaultRecord {
  return {
    account,
    denom,
    collateral,
    debt,
    index: computeVaultIndex(debt, collateral),
    next: null,
    vaultModified: 0,
    indexModified: 0,
    vaultLiveUntil: 0,
    indexLiveUntil: 0,
    vaultArchived: false,
    indexArchived: false,
    slot: -1,
  }
}

/** `OptionalVaultKey` of a record (None for null). */
export function optionalKey(w: WorldState, v: VaultRecord | null): ScVal {
  return buildOptionalVaultKey(v ? vaultKeyValue(w, v) : null)
}

/** A `VaultKey` call argument. */
export function vaultKeyArg(w: WorldState, v: VaultRecord): ScVal {
  const key = vaultKeyValue(w, v)
  return buildStruct({
    account: buildAddressVal(key.account),
    denomination: buildSymbol(key.denomination),
    index: buildU128(key.index),
  })
}

/**
 * Re-inserts a vault with new values, as every update does: `withdraw_vault` (its previous vault
 * now points past it) then `create_and_insert_vault` (its new previous vault points at it).
 */
export function reinsert(
  d: DenomState,
  v: VaultRecord,
  tracker: ReturnType<typeof createEntryTracker>,
  collateral: bigint,
  debt: bigint,
): void {
  const index = computeVaultIndex(debt, collateral)
  const at = positionOf(d.list, v)
  tracker.touch(at > 0 ? d.list[at - 1]! : null)
  tracker.touch(prevAfterMove(d, index, v))
  unlink(d, v)
  v.collateral = collateral
  v.debt = debt
  v.index = index
  link(d, v)
}
