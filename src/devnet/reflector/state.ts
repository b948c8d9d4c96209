import type { OracleAsset } from './layout.ts'

/**
 * The devnet's price feed, a Reflector oracle as deployed: v2 below `v3Ledger` (prices only in
 * TEMPORARY `U128((timestamp_ms << 64) | asset_index)` entries, no events), v3 from it on
 * (`REFLECTOR/update` events with `Map{update_data}`, and its `U64(timestamp_ms)` records). Both
 * rewrite the instance entry (`last_timestamp`) with every update. Base asset USD, 14 decimals.
 */
export const ORACLE_DECIMALS = 14

/** One oracle's state between ledgers: its assets, its last update and its instance entry's age. */
export interface OracleState {
  assets: OracleAsset[]
  lastTimestampMs: bigint
  instanceModified: number
  /** First ledger of Reflector v3 (events); earlier updates are v2 (storage only). */
  v3Ledger: number
}
