import type { DecodedLedger, DecodedTransaction } from '../../chain/decode-ledger.ts'

/**
 * Reflector oracle prices, as the deployed contracts record them (notes: protocols.md §4):
 *
 * - v3 (from March 2026) publishes `#[contractevent(topics = ["REFLECTOR", "update"])]` events:
 *   topics `[Sym REFLECTOR, Sym update, U64 timestamp_ms]`, data `Map{update_data: Vec[Vec[asset, I128]]}`
 *   where the asset is the raw `Address` (Asset::Stellar) or `Symbol` (Asset::Other).
 * - v2 (all earlier history) emits no events. `set_price` writes each price to a TEMPORARY entry
 *   keyed `U128((timestamp_ms << 64) | asset_index)`, the index being the asset's position in the
 *   instance storage's `assets` list (`Vec<Asset>`); v3 keeps writing these legacy entries too.
 *
 * Decimals are the contract's own (`decimals` in instance storage), never assumed. Both versions
 * rewrite the instance entry on every update (`last_timestamp`), so the assets list and decimals
 * arrive with the prices; what a feed said last is remembered in `OracleMemory` across ledgers.
 */
export interface PriceUpdate {
  /** The oracle contract (C...). */
  oracle: string
  /** The feed's own name for the asset: contract StrKey (Asset::Stellar) or symbol (Asset::Other). */
  asset: string
  price: bigint
  /** Decimals of `price`, from the contract's instance storage. */
  decimals: number
  /** Oracle timestamp, epoch milliseconds. */
  timestampMs: number
}

/** What an oracle's instance storage last said: the v2 asset list and the price decimals. */
export interface OracleMemory {
  assets: string[] | null
  decimals: number | null
}

export function createOracleMemory(): OracleMemory {
  return { assets: null, decimals: null }
}

const U64_LIMIT = 1n << 64n

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `Asset::Stellar(Address)` / `Asset::Other(Symbol)` as native `['Stellar', 'C…']` / `['Other', 'EUR']`. */
function assetName(asset: unknown): string | null {
  if (!Array.isArray(asset) || asset.length !== 2) return null
  const [tag, name] = asset
  return (tag === 'Stellar' || tag === 'Other') && typeof name === 'string' ? name : null
}

function rememberInstance(tx: DecodedTransaction, oracle: string, memory: OracleMemory): void {
  for (const change of tx.instanceChanges) {
    if (change.contract !== oracle) continue
    for (const { key, value } of change.storage) {
      if (key === 'decimals' && typeof value === 'number') memory.decimals = value
      else if (key === 'assets' && Array.isArray(value)) {
        const names = value.map(assetName)
        if (names.every((n) => n !== null)) memory.assets = names as string[]
      }
    }
  }
}

/**
 * Every price the oracle recorded in this ledger; when one ledger records an asset more than once,
 * the last applied record stands. Prices seen before the feed's decimals are known are dropped and
 * counted in `unvalued` (a v2/v3 update always rewrites the instance, so this means a malformed feed).
 */
export function adaptOracleLedger(
  ledger: DecodedLedger,
  oracle: string,
  memory: OracleMemory,
  unvalued: { count: number } = { count: 0 },
): PriceUpdate[] {
  const byAsset = new Map<string, PriceUpdate>()
  const record = (asset: string, price: bigint, timestampMs: bigint) => {
    if (memory.decimals === null) {
      unvalued.count++
      return
    }
    byAsset.delete(asset)
    byAsset.set(asset, { oracle, asset, price, decimals: memory.decimals, timestampMs: Number(timestampMs) })
  }
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    rememberInstance(tx, oracle, memory)
    for (const change of tx.contractDataChanges) {
      if (change.contract !== oracle || change.durability !== 'temporary' || change.kind === 'removed')
        continue
      // Legacy price records: U128 key above 2^64 (v3's own `U64(timestamp)` records are maps).
      const { key, value } = change
      if (typeof key !== 'bigint' || key < U64_LIMIT || typeof value !== 'bigint') continue
      const index = Number(key & (U64_LIMIT - 1n))
      const asset = memory.assets?.[index]
      if (asset === undefined) {
        unvalued.count++
        continue
      }
      record(asset, value, key >> 64n)
    }
    for (const event of tx.events) {
      if (event.contract !== oracle) continue
      const [name, action, timestamp] = event.topics
      if (name !== 'REFLECTOR' || action !== 'update' || typeof timestamp !== 'bigint') continue
      if (!isRecord(event.data) || !Array.isArray(event.data.update_data)) continue
      for (const row of event.data.update_data) {
        if (!Array.isArray(row) || row.length !== 2) continue
        const [asset, price] = row
        if (typeof asset !== 'string' || typeof price !== 'bigint') continue
        record(asset, price, timestamp)
      }
    }
  }
  return [...byAsset.values()]
}
