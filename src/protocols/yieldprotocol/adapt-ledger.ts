import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import {
  type AccountGroupChange,
  type ContractStateChange,
  type ProtocolLedgerFacts,
  type StoredItem,
  toStoredValue,
} from '../kit/protocol-module.ts'
import { readYieldActivities } from './activities.ts'

/**
 * DeFindex vaults and their Blend strategies as mainnet writes them (paltalabs/defindex
 * apps/contracts/vault/src/{storage,report}.rs, token/, strategies/blend/src/storage.rs;
 * docs/devnet.md). An account's position is its df-token `Balance(holder)` entry on the vault,
 * nothing else: transfers between holders change it with no deposit or withdraw. Everything the
 * price per share needs is kept as contract state, each entry with the ledger it was written at:
 * the vault's `TotalSupply`, `AssetStrategySet(i)`, `TotalAssets`, `VaultFee`,
 * `DeFindexProtocolFeeRate`, `METADATA` and `Report(strategy)`; the strategy's `Config`,
 * `Reserves` and `VaultPos(vault)`; and the vault's idle funds, its `Balance(vault)` entry in each
 * asset's contract. The Blend pool's `ResData` is the lending module's state.
 */

/** One stored df-token balance. */
export interface StoredYieldBalance {
  vault: string
  /** df-tokens (7 decimals), an integer string. */
  shares: string
  /** Ledger at which this item itself last changed (added by the account book). */
  ledger: number
}

/** Every item of a vault sits under the vault's address; an account has one per vault. */
export function yieldItemKey(item: StoredItem): string {
  return String(item.vault)
}

/** State keys (`contract_state.key`) of the vaults, the strategies and the assets' contracts. */
export const YIELD_STATE = {
  totalSupply: 'TotalSupply',
  totalAssets: 'TotalAssets',
  assetStrategySet: (index: number) => `AssetStrategySet/${index}`,
  vaultFee: 'VaultFee',
  protocolFee: 'DeFindexProtocolFeeRate',
  metadata: 'METADATA',
  report: (strategy: string) => `Report/${strategy}`,
  strategyConfig: 'Config',
  reserves: 'Reserves',
  vaultPos: (vault: string) => `VaultPos/${vault}`,
  /** On an asset's contract: the vault's balance of it (its idle funds). */
  assetBalance: (holder: string) => `Balance/${holder}`,
} as const

/** The vault instance keys kept, by their unit-variant name. */
const VAULT_INSTANCE_KEYS: Record<string, string> = {
  TotalSupply: YIELD_STATE.totalSupply,
  TotalAssets: YIELD_STATE.totalAssets,
  VaultFee: YIELD_STATE.vaultFee,
  DeFindexProtocolFeeRate: YIELD_STATE.protocolFee,
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `Vec[Symbol(tag)]` or `Vec[Symbol(tag), arg]` keys as native values. */
function enumKey(key: unknown): { tag: string; arg: unknown } | null {
  if (!Array.isArray(key) || key.length < 1 || key.length > 2 || typeof key[0] !== 'string') return null
  return { tag: key[0], arg: key[1] }
}

/** What the adapter watches: vaults, their strategies, and the assets whose balances are idle funds. */
export interface YieldWatch {
  vaults: ReadonlySet<string>
  strategies: ReadonlySet<string>
  /** Asset contract -> the vaults holding it. */
  assets: ReadonlyMap<string, ReadonlySet<string>>
}

/**
 * The vault facts of one ledger, in apply order. A restored entry comes back with the value it
 * held: no change. Failed transactions changed nothing and are skipped.
 */
export function adaptYieldLedger(ledger: DecodedLedger, watch: YieldWatch): ProtocolLedgerFacts {
  const accounts: AccountGroupChange[] = []
  const states: ContractStateChange[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const change of tx.contractDataChanges) {
      if (change.durability !== 'persistent' || change.kind === 'restored') continue
      const key = enumKey(change.key)
      if (key === null || typeof key.arg !== 'string') continue
      const contract = change.contract
      const removed = change.kind === 'removed'
      const value = removed ? null : change.value
      if (watch.vaults.has(contract)) {
        if (key.tag === 'Balance' && key.arg === contract) {
          // The vault's own df-tokens: the 1,000 shares its first deposit locks forever (minted to
          // the vault itself). They count in TotalSupply and are nobody's position.
        } else if (key.tag === 'Balance') {
          // The contract keeps an emptied balance at 0: absent from the answer, as a removed one.
          const shares = typeof value === 'bigint' ? value : 0n
          const items =
            shares === 0n ? [] : [{ key: contract, value: { vault: contract, shares: shares.toString() } }]
          accounts.push({ account: key.arg, group: contract, items })
        } else if (key.tag === 'Report' && !removed) {
          states.push({ contract, key: YIELD_STATE.report(key.arg), value: toStoredValue(value) })
        }
      } else if (watch.strategies.has(contract)) {
        if (key.tag === 'VaultPos' && watch.vaults.has(key.arg)) {
          states.push({
            contract,
            key: YIELD_STATE.vaultPos(key.arg),
            value: removed ? '0' : toStoredValue(value),
          })
        }
      } else if (key.tag === 'Balance' && watch.assets.get(contract)?.has(key.arg)) {
        // A Stellar asset contract's `BalanceValue{amount, authorized, clawback}`.
        const amount =
          isRecord(value) && typeof value.amount === 'bigint' ? value.amount : removed ? 0n : null
        if (amount !== null)
          states.push({ contract, key: YIELD_STATE.assetBalance(key.arg), value: amount.toString() })
      }
    }
    for (const instance of tx.instanceChanges) {
      const contract = instance.contract
      const vault = watch.vaults.has(contract)
      if (!vault && !watch.strategies.has(contract)) continue
      for (const { key, value } of instance.storage) {
        if (vault && key === YIELD_STATE.metadata) {
          states.push({ contract, key: YIELD_STATE.metadata, value: toStoredValue(value) })
          continue
        }
        const tagged = enumKey(key)
        if (tagged === null) continue
        if (vault) {
          const name = VAULT_INSTANCE_KEYS[tagged.tag]
          if (name !== undefined && tagged.arg === undefined)
            states.push({ contract, key: name, value: toStoredValue(value) })
          else if (tagged.tag === 'AssetStrategySet' && typeof tagged.arg === 'number')
            states.push({
              contract,
              key: YIELD_STATE.assetStrategySet(tagged.arg),
              value: toStoredValue(value),
            })
        } else if ((tagged.tag === 'Config' || tagged.tag === 'Reserves') && tagged.arg === undefined) {
          states.push({ contract, key: tagged.tag, value: toStoredValue(value) })
        }
      }
    }
  }
  return { accounts, states, activities: readYieldActivities(ledger, watch.vaults) }
}
