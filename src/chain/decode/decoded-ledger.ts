/** What decoding keeps of a ledger: the few facts the protocol adapters read, for watched contracts only. */

/** One ledger reduced to what touched the watched contracts. */
export interface DecodedLedger {
  sequence: number
  /** Ledger hash, lowercase hex. */
  hash: string
  /** The previous ledger's hash, lowercase hex, as this ledger's header states it: the hash chain. */
  previousHash: string
  /** Close time, epoch seconds. */
  closeTime: number
  /** Transactions, in apply order, that emitted an event or changed contract data of a watched contract. */
  transactions: DecodedTransaction[]
}

export interface DecodedTransaction {
  /** Transaction hash, lowercase hex. */
  hash: string
  /** A failed transaction is listed with no events and no changes: nothing it did took effect. */
  successful: boolean
  /** Fee charged, in stroops (the transaction result's `feeCharged`). */
  feeCharged: bigint
  /**
   * The account that paid the fee (the transaction's source unless fee-bumped), read from the
   * ledger's fee processing; null when that lists no account entry.
   */
  feeAccount: string | null
  /**
   * Read from the transaction set when the transaction invokes a watched contract (and the watch
   * list knows the network passphrase): its source account and the function called; else null.
   */
  sourceAccount: string | null
  invoked: { contract: string; fn: string; args: unknown[] } | null
  events: DecodedEvent[]
  contractDataChanges: ContractDataChange[]
  /** Watched contracts whose instance entry (and so its instance storage) this transaction rewrote. */
  instanceChanges: InstanceChange[]
}

/** One key/value of a contract's instance storage, as native values (see `scValToNative`). */
export interface InstanceEntry {
  key: unknown
  value: unknown
}

/**
 * A contract's instance entry as it stands after a transaction. Soroban keeps a contract's
 * instance storage (FxDAO's `VaultsInfo`, Reflector's `assets` and `decimals`) inside this one
 * entry, so every write to any instance key rewrites it whole. Decoded only for the watched
 * contracts whose adapters read it (`instanceStorage` of the watch list).
 */
export interface InstanceChange {
  kind: 'created' | 'updated'
  contract: string
  storage: InstanceEntry[]
}

export interface DecodedEvent {
  /** Emitting contract, C... StrKey. */
  contract: string
  topics: unknown[]
  data: unknown
}

/** A contract-data entry as it stands after the change, or its removal. */
export type ContractDataChange =
  | {
      kind: 'created' | 'updated' | 'restored'
      contract: string
      durability: 'persistent' | 'temporary'
      key: unknown
      value: unknown
    }
  | { kind: 'removed'; contract: string; durability: 'persistent' | 'temporary'; key: unknown }
