import type { xdr } from '@stellar/stellar-sdk'
import {
  buildContractDataEntry,
  buildContractDataKey,
  buildInstanceEntry,
} from '../ledger/contract-layout.ts'
import {
  buildAccountAddress,
  buildAddressVal,
  buildContractAddress,
  buildStruct,
  buildSymbol,
  buildU32,
  buildU128,
  type ScVal,
} from '../ledger/scval.ts'
import {
  type DenomState,
  MIN_COL_RATE,
  MIN_DEBT_CREATION,
  OPENING_COL_RATE,
  PROTOCOL_FEE,
  RATIO_ONE,
  type SimTx,
  STROOPS,
  type VaultRecord,
  vaultMapKey,
  type WorldState,
} from '../world/world-state.ts'
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

/**
 * FxDAO's vaults contract (0.6.0), simulated. Each function follows contract.rs: its validations
 * (a failed one traps and changes nothing), the sorted singly linked list (`withdraw_vault` then
 * `create_and_insert_vault` on every update, so a neighbour's `next_key` is rewritten), the one-off
 * fee on collateral, `VaultsInfo` in instance storage, and the SAC events in the order the contract
 * causes them. The ledger meta carries each entry's net change over the transaction.
 */

const TRAP_RATE = 0.02
/** How many liquidations one `liquidate` call takes at most. */
const MAX_LIQUIDATIONS = 8

const accountAddress = (w: WorldState, account: number) => buildAccountAddress(w.ids.accountKey(account))
const vaultContractAddress = (w: WorldState) => buildContractAddress(w.ids.vaultContract)

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

/** The deploy and `init`/`create_currency`/`set_vault_conditions` of the first ledger, as one transaction. */
export function deployVaultsTx(w: WorldState): SimTx {
  w.vaultInstanceModified = w.sequence
  return {
    source: w.ids.oracleAdmin,
    contract: w.ids.vaultContract,
    fn: 'init',
    args: [buildAddressVal(buildAccountAddress(w.ids.oracleAdmin))],
    successful: true,
    changes: [{ type: 0, created: buildVaultInstanceEntry(w) }],
    events: [],
  }
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

function positionOf(list: VaultRecord[], v: VaultRecord): number {
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

function unlink(d: DenomState, v: VaultRecord): VaultRecord | null {
  const at = positionOf(d.list, v)
  const prev = at > 0 ? d.list[at - 1]! : null
  if (prev) prev.next = v.next
  d.list.splice(at, 1)
  v.next = null
  return prev
}

function link(d: DenomState, v: VaultRecord): VaultRecord | null {
  const at = insertionPoint(d.list, v.index)
  const prev = at > 0 ? d.list[at - 1]! : null
  v.next = d.list[at] ?? null
  if (prev) prev.next = v
  d.list.splice(at, 0, v)
  return prev
}

/** The record that will precede a vault of `index` once `moving` has left the list. */
function prevAfterMove(d: DenomState, index: bigint, moving: VaultRecord | null): VaultRecord | null {
  let at = insertionPoint(d.list, index) - 1
  if (at >= 0 && d.list[at] === moving) at--
  return at >= 0 ? d.list[at]! : null
}

// ---------------------------------------------------------------------------------------------
// Entry changes of one transaction

interface Before {
  record: VaultRecord
  vault: xdr.LedgerEntryWire | null
  vaultFingerprint: string | null
  index: xdr.LedgerEntryWire | null
  indexValue: bigint | null
  account: number
}

function fingerprint(v: VaultRecord): string {
  const n = v.next
  return `${v.account}|${v.collateral}|${v.debt}|${v.index}|${n ? `${n.account}/${n.denom}/${n.index}` : '-'}`
}

/**
 * Collects the net change of every Vault and VaultIndex entry a transaction touches. `touch` must be
 * called for a record before it (or the list around it) changes; an archived entry is restored
 * first (LEDGER_ENTRY_RESTORED), as protocol 23 restores what a transaction's footprint needs.
 */
function createEntryTracker(w: WorldState) {
  const restores: xdr.LedgerEntryChangeWire[] = []
  const touched = new Map<VaultRecord, Before>()
  const infoBefore = buildVaultInstanceEntry(w)

  const restore = (v: VaultRecord, which: 'vault' | 'index') => {
    if (which === 'vault' && v.vaultArchived) {
      restores.push({ type: 4, restored: buildVaultEntry(w, v) })
      v.vaultArchived = false
      v.vaultLiveUntil = w.sequence + w.ttlLedgers
      scheduleExpiry(w, v, v.vaultLiveUntil)
    }
    if (which === 'index' && v.indexArchived) {
      restores.push({ type: 4, restored: buildVaultIndexEntry(w, v) })
      v.indexArchived = false
      v.indexLiveUntil = w.sequence + w.ttlLedgers
      scheduleExpiry(w, v, v.indexLiveUntil)
    }
  }

  return {
    /** Before-image of a record's entries; `owner` also reads its VaultIndex (the target of the call). */
    touch(v: VaultRecord | null, owner = false) {
      if (!v) return
      restore(v, 'vault')
      if (owner) restore(v, 'index')
      if (touched.has(v)) return
      touched.set(v, {
        record: v,
        vault: buildVaultEntry(w, v),
        vaultFingerprint: fingerprint(v),
        index: buildVaultIndexEntry(w, v),
        indexValue: v.index,
        account: v.account,
      })
    },
    /** A record that did not exist before this transaction. */
    created(v: VaultRecord) {
      touched.set(v, {
        record: v,
        vault: null,
        vaultFingerprint: null,
        index: null,
        indexValue: null,
        account: v.account,
      })
    },
    /** The changes in meta order: restores, then each entry's net change, then the instance entry. */
    finish(): xdr.LedgerEntryChangeWire[] {
      const changes: xdr.LedgerEntryChangeWire[] = [...restores]
      for (const before of touched.values()) {
        const v = before.record
        const open = w.vaults.get(vaultMapKey(v.account, v.denom)) === v
        const d = w.denoms[v.denom]!
        if (!open) {
          if (before.vault === null) continue
          const account = accountAddress(w, before.account)
          changes.push(
            { type: 3, state: before.vault },
            { type: 2, removed: buildContractDataKey(w.ids.vaultContract, buildVaultKey(account, d.name)) },
            { type: 3, state: before.index! },
            {
              type: 2,
              removed: buildContractDataKey(w.ids.vaultContract, buildVaultIndexKey(account, d.name)),
            },
          )
          continue
        }
        if (before.vault === null) {
          v.vaultModified = w.sequence
          v.indexModified = w.sequence
          renew(w, v, 'vault')
          renew(w, v, 'index')
          changes.push(
            { type: 0, created: buildVaultEntry(w, v) },
            { type: 0, created: buildVaultIndexEntry(w, v) },
          )
          continue
        }
        if (fingerprint(v) !== before.vaultFingerprint) {
          v.vaultModified = w.sequence
          renew(w, v, 'vault')
          changes.push({ type: 3, state: before.vault }, { type: 1, updated: buildVaultEntry(w, v) })
        }
        if (v.index !== before.indexValue) {
          v.indexModified = w.sequence
          renew(w, v, 'index')
          changes.push({ type: 3, state: before.index! }, { type: 1, updated: buildVaultIndexEntry(w, v) })
        }
      }
      w.vaultInstanceModified = w.sequence
      changes.push({ type: 3, state: infoBefore }, { type: 1, updated: buildVaultInstanceEntry(w) })
      return changes
    },
  }
}

function renew(w: WorldState, v: VaultRecord, which: 'vault' | 'index'): void {
  const until = w.sequence + w.ttlLedgers
  if (which === 'vault') v.vaultLiveUntil = until
  else v.indexLiveUntil = until
  scheduleExpiry(w, v, until)
}

export function scheduleExpiry(w: WorldState, v: VaultRecord, liveUntil: number): void {
  const bucket = w.expiries.get(liveUntil)
  if (bucket) bucket.push(v)
  else w.expiries.set(liveUntil, [v])
}

/**
 * Protocol 23 eviction: entries whose TTL ended the ledger before are archived now, their keys
 * listed in `evictedKeys`. They keep their values (the world still holds them).
 */
export function evictExpired(w: WorldState): xdr.LedgerKeyWire[] {
  const expired = w.sequence - 1
  const bucket = w.expiries.get(expired)
  if (!bucket) return []
  w.expiries.delete(expired)
  const keys: xdr.LedgerKeyWire[] = []
  if (!w.protocol23) {
    // Before protocol 23 nothing is evicted: look again once the network has switched.
    for (const v of bucket) scheduleExpiry(w, v, w.sequence)
    return keys
  }
  for (const v of bucket) {
    if (w.vaults.get(vaultMapKey(v.account, v.denom)) !== v) continue
    const d = w.denoms[v.denom]!
    const account = accountAddress(w, v.account)
    if (!v.vaultArchived && v.vaultLiveUntil <= expired) {
      v.vaultArchived = true
      keys.push(buildContractDataKey(w.ids.vaultContract, buildVaultKey(account, d.name)))
    }
    if (!v.indexArchived && v.indexLiveUntil <= expired) {
      v.indexArchived = true
      keys.push(buildContractDataKey(w.ids.vaultContract, buildVaultIndexKey(account, d.name)))
    }
  }
  return keys
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping of open vaults

function addOpen(w: WorldState, v: VaultRecord): void {
  v.slot = w.open.length
  w.open.push(v)
  w.vaults.set(vaultMapKey(v.account, v.denom), v)
}

function removeOpen(w: WorldState, v: VaultRecord): void {
  const last = w.open.pop()!
  if (last !== v) {
    w.open[v.slot] = last
    last.slot = v.slot
  }
  w.vaults.delete(vaultMapKey(v.account, v.denom))
}

function newRecord(account: number, denom: number, collateral: bigint, debt: bigint): VaultRecord {
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

function optionalKey(w: WorldState, v: VaultRecord | null): ScVal {
  return buildOptionalVaultKey(v ? vaultKeyValue(w, v) : null)
}

function vaultKeyArg(w: WorldState, v: VaultRecord): ScVal {
  const key = vaultKeyValue(w, v)
  return buildStruct({
    account: buildAddressVal(key.account),
    denomination: buildSymbol(key.denomination),
    index: buildU128(key.index),
  })
}

function failedTx(w: WorldState, source: Uint8Array, fn: string, args: ScVal[]): SimTx {
  return { source, contract: w.ids.vaultContract, fn, args, successful: false, changes: [], events: [] }
}

/**
 * Re-inserts a vault with new values, as every update does: `withdraw_vault` (its previous vault
 * now points past it) then `create_and_insert_vault` (its new previous vault points at it).
 */
function reinsert(
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

// ---------------------------------------------------------------------------------------------
// The contract's functions

type AccountAction = 'open' | 'deposit' | 'withdraw' | 'borrow' | 'repay' | 'close' | 'transfer'

function pickAction(w: WorldState, existing: VaultRecord | undefined): AccountAction {
  if (!existing) return 'open'
  const roll = w.rng.nextInt(100)
  if (roll < 24) return 'deposit'
  if (roll < 38) return 'withdraw'
  if (roll < 56) return 'borrow'
  if (roll < 79) return 'repay'
  if (roll < 95) return 'close'
  return 'transfer'
}

/** One account acts on one of its vaults. */
export function simulateAccountAction(w: WorldState, account: number): SimTx {
  const { rng } = w
  const prefs = w.preferences[account]!
  let denom = rng.nextInt(3)
  while ((prefs & (1 << denom)) === 0) denom = (denom + 1) % 3
  const d = w.denoms[denom]!
  const v = w.vaults.get(vaultMapKey(account, denom))
  const action = pickAction(w, v)
  const scale = BigInt(w.scale[account]!)
  const rate = currencyRate(w, d)
  const source = w.ids.accountKey(account)
  const caller = accountAddress(w, account)
  const trap = rng.chance(TRAP_RATE)

  if (action === 'open') {
    const debt = BigInt(rng.nextRange(100, 5_000)) * scale * STROOPS
    const ratio = BigInt(rng.nextRange(11_600_000, 35_000_000))
    const wanted = (debt * ratio + rate - 1n) / rate
    const amount = (wanted * RATIO_ONE + (RATIO_ONE - PROTOCOL_FEE) - 1n) / (RATIO_ONE - PROTOCOL_FEE)
    const fee = calcFee(PROTOCOL_FEE, amount)
    const collateral = amount - fee
    const args = [
      optionalKey(w, prevAfterMove(d, computeVaultIndex(debt, collateral), null)),
      buildAddressVal(caller),
      buildU128(debt),
      buildU128(amount),
      buildSymbol(d.name),
    ]
    if (trap || depositRatio(rate, collateral, debt) < OPENING_COL_RATE)
      return failedTx(w, source, 'new_vault', args)
    const tracker = createEntryTracker(w)
    const record = newRecord(account, denom, collateral, debt)
    tracker.touch(prevAfterMove(d, record.index, null))
    link(d, record)
    addOpen(w, record)
    tracker.created(record)
    d.totalVaults += 1n
    d.totalDebt += debt
    d.totalCol += collateral
    return {
      source,
      contract: w.ids.vaultContract,
      fn: 'new_vault',
      args,
      successful: true,
      changes: tracker.finish(),
      events: [
        w.xlmSac.transfer(caller, vaultContractAddress(w), collateral),
        d.sac.mint(vaultContractAddress(w), caller, debt, w.protocol23),
        w.xlmSac.transfer(caller, buildAccountAddress(w.ids.treasury), fee),
      ],
    }
  }

  const vault = v!
  const vaultArgs = (newPrev: VaultRecord | null, amount: ScVal) => [
    optionalKey(w, vault === d.list[0] ? null : d.list[positionOf(d.list, vault) - 1]!),
    vaultKeyArg(w, vault),
    optionalKey(w, newPrev),
    amount,
  ]

  if (action === 'transfer') {
    let destination = rng.nextInt(w.accounts)
    if (w.vaults.has(vaultMapKey(destination, denom))) destination = (destination + 1) % w.accounts
    const args = [
      optionalKey(w, vault === d.list[0] ? null : d.list[positionOf(d.list, vault) - 1]!),
      vaultKeyArg(w, vault),
      buildAddressVal(accountAddress(w, destination)),
    ]
    if (trap || destination === account || w.vaults.has(vaultMapKey(destination, denom))) {
      return failedTx(w, source, 'transfer_debt', args)
    }
    const tracker = createEntryTracker(w)
    tracker.touch(vault, true)
    const at = positionOf(d.list, vault)
    tracker.touch(at > 0 ? d.list[at - 1]! : null)
    const moved = newRecord(destination, denom, vault.collateral, vault.debt)
    tracker.touch(prevAfterMove(d, moved.index, vault))
    unlink(d, vault)
    removeOpen(w, vault)
    link(d, moved)
    addOpen(w, moved)
    tracker.created(moved)
    return {
      source,
      contract: w.ids.vaultContract,
      fn: 'transfer_debt',
      args,
      successful: true,
      changes: tracker.finish(),
      events: [],
    }
  }

  let collateral = vault.collateral
  let debt = vault.debt
  let amount = 0n
  let valid = true
  let fn = ''
  const events: xdr.ContractEventWire[] = []
  const contract = vaultContractAddress(w)
  const treasury = buildAccountAddress(w.ids.treasury)
  switch (action) {
    case 'deposit': {
      fn = 'increase_collateral'
      amount = (vault.collateral * BigInt(rng.nextRange(5, 60))) / 100n + STROOPS
      const fee = calcFee(PROTOCOL_FEE, amount)
      valid = amount >= PROTOCOL_FEE * 10n
      collateral += amount - fee
      events.push(w.xlmSac.transfer(caller, contract, amount - fee), w.xlmSac.transfer(caller, treasury, fee))
      break
    }
    case 'withdraw':
      fn = 'withdraw_collateral'
      amount = (vault.collateral * BigInt(rng.nextRange(2, 30))) / 100n
      collateral -= amount
      valid = depositRatio(rate, collateral, debt) >= OPENING_COL_RATE
      events.push(w.xlmSac.transfer(contract, caller, amount))
      break
    case 'borrow':
      fn = 'increase_debt'
      amount = (vault.debt * BigInt(rng.nextRange(5, 40))) / 100n + STROOPS
      debt += amount
      valid = depositRatio(rate, collateral, debt) >= OPENING_COL_RATE
      events.push(d.sac.mint(contract, caller, amount, w.protocol23))
      break
    case 'repay':
      fn = 'pay_debt'
      amount = (vault.debt * BigInt(rng.nextRange(5, 60))) / 100n
      debt -= amount
      valid = amount > 0n && debt >= MIN_DEBT_CREATION
      events.push(d.sac.burn(caller, amount))
      break
    case 'close': {
      fn = 'pay_debt'
      amount = vault.debt
      const fee = calcFee(PROTOCOL_FEE, vault.collateral)
      events.push(
        d.sac.burn(caller, amount),
        w.xlmSac.transfer(contract, caller, vault.collateral - fee),
        w.xlmSac.transfer(contract, treasury, fee),
      )
      break
    }
  }
  const closing = action === 'close'
  const newPrev = closing || !valid ? null : prevAfterMove(d, computeVaultIndex(debt, collateral), vault)
  const args = vaultArgs(newPrev, buildU128(amount))
  if (trap || !valid) return failedTx(w, source, fn, args)

  const tracker = createEntryTracker(w)
  tracker.touch(vault, true)
  if (closing) {
    const at = positionOf(d.list, vault)
    tracker.touch(at > 0 ? d.list[at - 1]! : null)
    unlink(d, vault)
    removeOpen(w, vault)
    d.totalVaults -= 1n
    d.totalCol -= vault.collateral
    d.totalDebt -= vault.debt
  } else {
    d.totalCol += collateral - vault.collateral
    d.totalDebt += debt - vault.debt
    reinsert(d, vault, tracker, collateral, debt)
  }
  return {
    source,
    contract: w.ids.vaultContract,
    fn,
    args,
    successful: true,
    changes: tracker.finish(),
    events,
  }
}

/** A redeemer burns stablecoin against the lowest (riskiest) vault of a denomination, for its collateral. */
export function simulateRedeem(w: WorldState, denom: number): SimTx | null {
  const d = w.denoms[denom]!
  const lowest = d.list[0]
  if (!lowest) return null
  const rate = currencyRate(w, d)
  const full = w.rng.chance(0.3)
  const amount = full ? lowest.debt : (lowest.debt * BigInt(w.rng.nextRange(10, 60))) / 100n
  const redeemer = buildAccountAddress(w.ids.redeemer)
  const owner = accountAddress(w, lowest.account)
  const contract = vaultContractAddress(w)
  const treasury = buildAccountAddress(w.ids.treasury)
  const collateralToRedeem = (amount * RATIO_ONE) / rate
  const newDebt = lowest.debt - amount
  const newCollateral = lowest.collateral - collateralToRedeem
  const partial = amount < lowest.debt
  const valid =
    collateralToRedeem <= lowest.collateral &&
    (!partial || (newDebt >= MIN_DEBT_CREATION && depositRatio(rate, newCollateral, newDebt) >= MIN_COL_RATE))
  const newPrev =
    !partial || !valid ? null : prevAfterMove(d, computeVaultIndex(newDebt, newCollateral), lowest)
  const args = [buildAddressVal(redeemer), buildSymbol(d.name), optionalKey(w, newPrev), buildU128(amount)]
  if (!valid || w.rng.chance(TRAP_RATE)) return failedTx(w, w.ids.redeemer, 'redeem', args)

  // 2.5% when partial with a vault after it, else 1%; half to the vault's owner, half to the treasury.
  const fee = calcFee(partial && lowest.next !== null ? 250_000n : 100_000n, collateralToRedeem)
  const ownerSide = fee / 2n
  const events = [
    d.sac.burn(redeemer, amount),
    w.xlmSac.transfer(contract, redeemer, collateralToRedeem - fee),
    w.xlmSac.transfer(contract, owner, ownerSide),
    w.xlmSac.transfer(contract, treasury, fee - ownerSide),
  ]
  const tracker = createEntryTracker(w)
  tracker.touch(lowest, true)
  d.totalCol -= collateralToRedeem
  d.totalDebt -= amount
  if (!partial) {
    unlink(d, lowest)
    removeOpen(w, lowest)
    d.totalVaults -= 1n
    d.totalCol -= lowest.collateral - collateralToRedeem
    events.push(w.xlmSac.transfer(contract, owner, lowest.collateral - collateralToRedeem))
  } else {
    reinsert(d, lowest, tracker, newCollateral, newDebt)
  }
  return {
    source: w.ids.redeemer,
    contract: w.ids.vaultContract,
    fn: 'redeem',
    args,
    successful: true,
    changes: tracker.finish(),
    events,
  }
}

/** A liquidator takes the vaults under the minimum collateral ratio from the head of the list, whole. */
export function simulateLiquidation(w: WorldState, denom: number): SimTx | null {
  const d = w.denoms[denom]!
  const rate = currencyRate(w, d)
  const victims: VaultRecord[] = []
  for (const v of d.list) {
    if (victims.length >= MAX_LIQUIDATIONS || depositRatio(rate, v.collateral, v.debt) >= MIN_COL_RATE) break
    victims.push(v)
  }
  if (victims.length === 0) return null
  const liquidator = buildAccountAddress(w.ids.liquidator)
  const args = [buildAddressVal(liquidator), buildSymbol(d.name), buildU32(victims.length)]
  if (w.rng.chance(TRAP_RATE)) return failedTx(w, w.ids.liquidator, 'liquidate', args)
  const tracker = createEntryTracker(w)
  let collateral = 0n
  let debt = 0n
  for (const v of victims) {
    tracker.touch(v, true)
    collateral += v.collateral
    debt += v.debt
    unlink(d, v)
    removeOpen(w, v)
  }
  d.totalVaults -= BigInt(victims.length)
  d.totalCol -= collateral
  d.totalDebt -= debt
  const fee = calcFee(PROTOCOL_FEE, collateral)
  const contract = vaultContractAddress(w)
  return {
    source: w.ids.liquidator,
    contract: w.ids.vaultContract,
    fn: 'liquidate',
    args,
    successful: true,
    changes: tracker.finish(),
    events: [
      d.sac.burn(liquidator, debt),
      w.xlmSac.transfer(contract, liquidator, collateral - fee),
      w.xlmSac.transfer(contract, buildAccountAddress(w.ids.treasury), fee),
    ],
  }
}
