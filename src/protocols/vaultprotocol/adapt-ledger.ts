import type { DecodedLedger } from '../../chain/decode-ledger.ts'

/** The vault protocol's state changes in one ledger, in apply order. Pure: no I/O. */
export type VaultStateChange =
  | {
      kind: 'vault-upsert'
      account: string
      denomination: string
      /** Stroops of XLM collateral. */
      totalCollateral: bigint
      /** Normalised debt: debt = ceil(totalDebt × debt_rate / 10^12). */
      totalDebt: bigint
      index: bigint
    }
  | { kind: 'vault-removed'; account: string; denomination: string }
  /** A denomination's stability-fee debt rate, 12 decimals. */
  | { kind: 'debt-rate'; denomination: string; debtRate: bigint }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toBigInt(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
  return null
}

/** `Vec[Sym "Vault", Vec[Addr account, Sym denomination]]` -> [account, denomination]. */
function readVaultKey(key: unknown): [string, string] | null {
  if (!Array.isArray(key) || key.length !== 2 || key[0] !== 'Vault') return null
  const inner = key[1]
  if (!Array.isArray(inner) || inner.length !== 2) return null
  const [account, denomination] = inner
  if (typeof account !== 'string' || typeof denomination !== 'string') return null
  return [account, denomination]
}

/** `Vec[Sym "VaultsInfo", Sym denomination]` -> denomination. */
function readVaultsInfoKey(key: unknown): string | null {
  if (!Array.isArray(key) || key.length !== 2 || key[0] !== 'VaultsInfo') return null
  return typeof key[1] === 'string' ? key[1] : null
}

/**
 * Vault state is read from contract-data changes, not events: the protocol emits none.
 * Entries of other shapes (the contract's own bookkeeping) are not positions and are skipped.
 */
export function adaptVaultLedger(ledger: DecodedLedger, contract: string): VaultStateChange[] {
  const changes: VaultStateChange[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const change of tx.contractDataChanges) {
      if (change.contract !== contract || change.durability !== 'persistent') continue
      const vault = readVaultKey(change.key)
      if (vault !== null) {
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
        continue
      }
      const denomination = readVaultsInfoKey(change.key)
      if (denomination === null || change.kind === 'removed' || !isRecord(change.value)) continue
      const debtRate = toBigInt(change.value.debt_rate)
      if (debtRate !== null) changes.push({ kind: 'debt-rate', denomination, debtRate })
    }
  }
  return changes
}
