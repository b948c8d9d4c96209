import type { DecodedLedger } from '../../chain/decode-ledger.ts'

/** One oracle price, USD per unit with 14 decimals, as of the oracle's own timestamp. */
export interface PriceUpdate {
  /** Contract StrKey (C...) for an address asset, the symbol (EUR, GBP) for a symbol asset. */
  asset: string
  price: bigint
  /** Oracle timestamp, epoch milliseconds. */
  timestampMs: number
}

/**
 * Reflector v3 updates: topics `[REFLECTOR, update, timestamp_ms]`, data `Vec[Vec[asset, price]]`.
 * When one ledger carries several updates of an asset, the last applied one stands.
 */
export function adaptOracleLedger(ledger: DecodedLedger, contract: string): PriceUpdate[] {
  const byAsset = new Map<string, PriceUpdate>()
  for (const tx of ledger.transactions) {
    if (!tx.successful) continue
    for (const event of tx.events) {
      if (event.contract !== contract) continue
      const [name, action, timestamp] = event.topics
      if (name !== 'REFLECTOR' || action !== 'update' || typeof timestamp !== 'bigint') continue
      if (!Array.isArray(event.data)) continue
      for (const row of event.data) {
        if (!Array.isArray(row) || row.length !== 2) continue
        const [asset, price] = row
        if (typeof asset !== 'string' || typeof price !== 'bigint') continue
        byAsset.delete(asset)
        byAsset.set(asset, { asset, price, timestampMs: Number(timestamp) })
      }
    }
  }
  return [...byAsset.values()]
}
