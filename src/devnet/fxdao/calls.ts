import type { xdr } from '@stellar/stellar-sdk'
import {
  buildAccountAddress,
  buildAddressVal,
  buildSymbol,
  buildU32,
  buildU128,
  type ScVal,
} from '../ledger/scval.ts'
import { type SimTx, STROOPS, type WorldState } from '../world/world-state.ts'
import { createEntryTracker } from './entry-changes.ts'
import { computeVaultIndex } from './layout.ts'
import {
  accountAddress,
  addOpen,
  buildVaultInstanceEntry,
  calcFee,
  currencyRate,
  depositRatio,
  link,
  MIN_COL_RATE,
  MIN_DEBT_CREATION,
  newRecord,
  OPENING_COL_RATE,
  optionalKey,
  PROTOCOL_FEE,
  positionOf,
  prevAfterMove,
  RATIO_ONE,
  reinsert,
  removeOpen,
  unlink,
  type VaultRecord,
  vaultContractAddress,
  vaultKeyArg,
  vaultMapKey,
} from './state.ts'

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

/** A trapped call: the transaction fails and changes nothing. */
function failedTx(w: WorldState, source: Uint8Array, fn: string, args: ScVal[]): SimTx {
  return { source, contract: w.ids.vaultContract, fn, args, successful: false, changes: [], events: [] }
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
