/** Wire discriminants, from the XDR definitions (Stellar-ledger-entries.x, Stellar-contract.x). */
export const SC_ADDRESS_CONTRACT = 1
export const LEDGER_ENTRY_ACCOUNT = 0
export const LEDGER_ENTRY_CONTRACT_DATA = 6
export const DURABILITY_TEMPORARY = 0
export const SCV_LEDGER_KEY_CONTRACT_INSTANCE = 20
export const SCV_LEDGER_KEY_NONCE = 21
export const SCV_CONTRACT_INSTANCE = 19
export const SCV_VEC = 16
export const SCV_ADDRESS = 18
export const CONTRACT_EVENT_CONTRACT = 1
export const TX_SUCCESS = 0
export const TX_FEE_BUMP_INNER_SUCCESS = 1
/** A LedgerEntryChange's type -> the kind of change it reports (removed and state are read apart). */
export const CHANGE_KINDS = ['created', 'updated', null, null, 'restored'] as const
