import type { DecodedLedger } from '../../chain/decode-ledger.ts'

/**
 * The vault protocol's state changes in one ledger, in apply order. Pure: no I/O.
 *
 * The contract is FxDAO's vaults contract (0.6.0; notes: mainnet.md §1). It emits no events, so
 * positions come from its persistent `Vault((account, denomination))` entries alone:
 * `{account, denomination, index, next_key, total_collateral, total_debt}`, debt stored plainly
 * (no rate, no accrual). What an upsert carries is what a position is; `next_key` is not part of
 * it, so a neighbour's entry rewritten only because the sorted list changed is no change of its
 * owner's position (the book compares values). `VaultIndex` entries and the instance storage
 * (`VaultsInfo`, `CoreState`, `Currency`) are the contract's bookkeeping, not positions.
 */
export type VaultStateChange =
  | {
      kind: 'vault-upsert'
      account: string
      denomination: string
      /** Stroops of XLM collateral. */
      totalCollateral: bigint
      /** Debt in the denomination's stablecoin, 7 decimals, as stored. */
      totalDebt: bigint
      index: bigint
    }
  | { kind: 'vault-removed'; account: string; denomination: string }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toBigInt(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
  return null
}

/**
 * `Vec[Sym "Vault", Vec[Addr account, Sym denomination]]` -> [account, denomination]. Before
 * May 2024 the contract keyed vaults by `Vault(VaultKey{account, denomination, index})`; that form
 * is read too, so a backfill over older history finds the same positions.
 */
function readVaultKey(key: unknown): [string, string] | null {
  if (!Array.isArray(key) || key.length !== 2 || key[0] !== 'Vault') return null
  const inner = key[1]
  if (Array.isArray(inner)) {
    if (inner.length !== 2) return null
    const [account, denomination] = inner
    return typeof account === 'string' && typeof denomination === 'string' ? [account, denomination] : null
  }
  if (isRecord(inner) && typeof inner.account === 'string' && typeof inner.denomination === 'string') {
    return [inner.account, inner.denomination]
  }
  return null
}

/**
 * Vault state from contract-data changes. A restored entry (LEDGER_ENTRY_RESTORED) comes back from
 * the archive with the value it had: it is no change and is skipped, as eviction is never read.
 */
export function adaptVaultLedger(ledger: DecodedLedger, contract: string): VaultStateChange[] {
  const changes: VaultStateChange[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const change of tx.contractDataChanges) {
      if (change.contract !== contract || change.durability !== 'persistent' || change.kind === 'restored') {
        continue
      }
      const vault = readVaultKey(change.key)
      if (vault === null) continue
      const [account, denomination] = vault
      if (change.kind === 'removed') {
        changes.push({ kind: 'vault-removed', account, denomination })
        continue
      }
      if (!isRecord(change.value)) continue
      const totalCollateral = toBigInt(change.value.total_collateral)
      const totalDebt = toBigInt(change.value.total_debt)
      const index = toBigInt(change.value.index)
      if (totalCollateral === null || totalDebt === null || index === null) continue
      changes.push({ kind: 'vault-upsert', account, denomination, totalCollateral, totalDebt, index })
    }
  }
  return changes
}
