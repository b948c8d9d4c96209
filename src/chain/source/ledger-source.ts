import type { RawMeta } from '../ledger-decoder.ts'

/**
 * Where ingestion reads ledgers: one interface over Stellar RPC (`rpc-source.ts`), the data lake
 * (`datalake-source.ts`) and the two together (`backfill-source.ts`), so the indexer asks one source
 * for the next ledgers whatever serves them.
 */

/** One ledger as a source serves it: raw meta, and the hash when the source states it apart (RPC). */
export interface SourceLedger {
  sequence: number
  hash: string | null
  meta: RawMeta
}

/** Contiguous ledgers, with the chain head as last reported (for progress). */
export interface SourcePage {
  ledgers: SourceLedger[]
  latestLedger: number
}

/** The network a store behind a source holds, and how messages name that store ("<url> serves"). */
export interface SourceNetwork {
  passphrase: string
  servedBy: string
}

/** What a live source holds now: its oldest ledger and the chain head. */
export interface SourceWindow {
  oldestLedger: number
  latestLedger: number
}

/** A source that follows the chain: ledgers from its window's oldest on, and the head as it grows. */
export interface LedgerSource {
  /**
   * The network of each store behind the source, in the order they are reached (opening what must
   * be opened), so the caller refuses another network before a ledger is read.
   */
  networks(signal: AbortSignal): AsyncIterable<SourceNetwork>
  window(signal: AbortSignal): Promise<SourceWindow>
  /** Whether ledgers older than the window's oldest are served too (from an archive). */
  readonly backfills: boolean
  /**
   * Pages of contiguous ledgers from `from` on, up to `to` (inclusive), or following the head when
   * `to` is absent. Retries transient failures itself; a ledger is never skipped. Ending the
   * iteration ends its fetching ahead.
   */
  pages(from: number, to: number | undefined, signal: AbortSignal): AsyncIterable<SourcePage>
}

/** A store of past ledgers only (the data lake): a closed range, no head to follow. */
export interface LedgerArchive {
  networks(signal: AbortSignal): AsyncIterable<SourceNetwork>
  /** Ledgers `from`..`to` (inclusive) in order, in pages; throws when it does not hold one of them. */
  pages(from: number, to: number, signal: AbortSignal): AsyncIterable<SourceLedger[]>
}
