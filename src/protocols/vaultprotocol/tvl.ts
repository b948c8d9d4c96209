import type { DecodedLedger } from '../../chain/decode-ledger.ts'
import type { NetworkConfig } from '../../chain/network.ts'
import type { ContractStateChange, PositionsDeps, TvlAsset, TvlSurface } from '../kit/protocol-module.ts'

/**
 * FxDAO's own totals: `VaultsInfo(denomination)` in the vaults contract's instance storage
 * (`{denomination, total_vaults, total_debt, total_col, lowest_key, min_col_rate, min_debt_creation,
 * opening_col_rate}`; notes: mainnet.md §1), which the contract rewrites with every vault it
 * changes. Kept as contract state `VaultsInfo/<denomination>` with the three totals.
 */
export const vaultsInfoKey = (denomination: string) => `VaultsInfo/${denomination}`

export interface StoredVaultsInfo {
  /** Stroops of XLM collateral in all the denomination's vaults. */
  total_col: string
  /** Debt of all its vaults, in the debt token's units (7 decimals). */
  total_debt: string
  total_vaults: string
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const integer = (v: unknown) => (typeof v === 'bigint' || typeof v === 'number' ? BigInt(v).toString() : null)

/** The `VaultsInfo` entries an instance rewrite of the vaults contract carries, in apply order. */
export function readVaultsInfo(ledger: DecodedLedger, contract: string): ContractStateChange[] {
  const states: ContractStateChange[] = []
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const instance of tx.instanceChanges) {
      if (instance.contract !== contract) continue
      for (const { key, value } of instance.storage) {
        if (!Array.isArray(key) || key[0] !== 'VaultsInfo' || typeof key[1] !== 'string' || !isRecord(value))
          continue
        const info = {
          total_col: integer(value.total_col),
          total_debt: integer(value.total_debt),
          total_vaults: integer(value.total_vaults),
        }
        if (info.total_col === null || info.total_debt === null || info.total_vaults === null) continue
        states.push({ contract, key: vaultsInfoKey(key[1]), value: info })
      }
    }
  }
  return states
}

/**
 * Collateral locked (XLM, summed over denominations) and debt owed per debt token, from each
 * denomination's `VaultsInfo` as last written at or before the ledger.
 */
async function lockedAt(deps: PositionsDeps, network: NetworkConfig, ledger: number) {
  const contract = network.contracts.vaultprotocol.address
  const assets: TvlAsset[] = []
  let collateral: bigint | null = null
  let asOfLedger: number | null = null
  let partial = false
  for (const [denomination, { debt_asset }] of Object.entries(network.vaultprotocol.denominations)) {
    const row = await deps.reader.stateAt(contract, vaultsInfoKey(denomination), ledger)
    if (!row) {
      partial = true
      continue
    }
    const info = JSON.parse(row.value) as StoredVaultsInfo
    asOfLedger = Math.max(asOfLedger ?? 0, row.ledger)
    collateral = (collateral ?? 0n) + BigInt(info.total_col)
    assets.push({ asset: debt_asset, locked: null, borrowed: BigInt(info.total_debt) })
  }
  if (collateral !== null) {
    assets.unshift({ asset: network.vaultprotocol.collateral_asset, locked: collateral, borrowed: null })
  }
  return { assets, asOfLedger, partial }
}

export const vaultTvl: TvlSurface = {
  description:
    "From FxDAO's own totals, `VaultsInfo(denomination)` in the vaults contract's instance storage as last written at or before the ledger: `locked` is the XLM collateral of every vault (Σ total_col), `borrowed` each denomination's debt in its stablecoin (total_debt, whose `locked` is null: the contract mints it, it holds none).",
  lockedAt,
}
