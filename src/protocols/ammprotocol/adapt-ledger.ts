import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import type {
  AccountGroupChange,
  ContractStateChange,
  ProtocolLedgerFacts,
  StoredItem,
} from '../kit/protocol-module.ts'
import { readAmmActivities } from './activities.ts'

/**
 * Soroswap pairs as mainnet writes them (soroswap/core contracts/pair/src/storage.rs and
 * soroswap_pair_token; docs/devnet.md). A pair is its own LP token: an account's position is its
 * persistent `Balance(holder)` entry of the pair, read from storage, never replayed from events (LP
 * tokens move by plain transfer with no pair event). The pair's own balance holds the 1,000 units
 * locked on the first deposit and, for the length of a withdrawal, the LP tokens being burnt: it is
 * nobody's position. Reserves and total supply live in the pair's instance storage (`U32(0..5)`,
 * `TotalSupply`), rewritten whole by every deposit, swap and withdrawal: kept as contract state.
 */

/** Instance keys of a pair (`DataKey` as `u32`, storage.rs). */
const TOKEN_0 = 0
const TOKEN_1 = 1
const RESERVE_0 = 2
const RESERVE_1 = 3

/** The state key under which a pair's tokens, reserves and LP supply are kept (`contract_state.key`). */
export const PAIR_STATE = 'Pair'

/** One stored LP position: the account's `Balance` of one pair. */
export interface StoredLiquidity {
  pair: string
  kind: 'liquidity'
  /** LP tokens, an integer string (7 decimals). */
  balance: string
  /** Ledger at which the balance itself last changed (added by the account book). */
  ledger: number
}

/** A pair's state as its instance entry states it; a value the entry lacks is null. */
export interface StoredPair {
  token_0: string | null
  token_1: string | null
  reserve_0: string | null
  reserve_1: string | null
  total_supply: string | null
}

/** One group (and one item) per pair: the pair's address. */
export function ammItemKey(item: StoredItem): string {
  return String(item.pair)
}

const isTagged = (key: unknown, tag: string): key is unknown[] => Array.isArray(key) && key[0] === tag

function readPairInstance(storage: ReadonlyArray<{ key: unknown; value: unknown }>): StoredPair {
  const pair: StoredPair = {
    token_0: null,
    token_1: null,
    reserve_0: null,
    reserve_1: null,
    total_supply: null,
  }
  for (const { key, value } of storage) {
    if (key === TOKEN_0 && typeof value === 'string') pair.token_0 = value
    else if (key === TOKEN_1 && typeof value === 'string') pair.token_1 = value
    else if (key === RESERVE_0 && typeof value === 'bigint') pair.reserve_0 = value.toString()
    else if (key === RESERVE_1 && typeof value === 'bigint') pair.reserve_1 = value.toString()
    else if (isTagged(key, 'TotalSupply') && key.length === 1 && typeof value === 'bigint')
      pair.total_supply = value.toString()
  }
  return pair
}

/**
 * The pair facts of one ledger, in apply order. A restored entry comes back with the value it held:
 * no change. Failed transactions changed nothing and are skipped.
 */
export function adaptAmmLedger(ledger: DecodedLedger, pairs: ReadonlySet<string>): ProtocolLedgerFacts {
  const accounts: AccountGroupChange[] = []
  const states: ContractStateChange[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const change of tx.contractDataChanges) {
      if (!pairs.has(change.contract) || change.durability !== 'persistent' || change.kind === 'restored')
        continue
      const key = change.key
      if (!isTagged(key, 'Balance') || key.length !== 2 || typeof key[1] !== 'string') continue
      const pair = change.contract
      const holder = key[1]
      if (holder === pair) continue
      const balance = change.kind === 'removed' ? 0n : change.value
      if (typeof balance !== 'bigint') continue
      // An account that sent all its LP tokens away keeps a zero entry: it holds no position.
      const items =
        balance === 0n ? [] : [{ key: pair, value: { pair, kind: 'liquidity', balance: balance.toString() } }]
      accounts.push({ account: holder, group: pair, items })
    }
    for (const instance of tx.instanceChanges) {
      if (!pairs.has(instance.contract)) continue
      const value = readPairInstance(instance.storage)
      states.push({ contract: instance.contract, key: PAIR_STATE, value: { ...value } })
    }
  }
  return { accounts, states, activities: readAmmActivities(ledger, pairs) }
}
