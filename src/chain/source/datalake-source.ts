import { type Datalake, type DatalakeOptions, openDatalake } from '../datalake.ts'
import type { LedgerArchive, SourceLedger } from './ledger-source.ts'

/** Ledgers (and bytes of XDR) gathered from data-lake objects into one page for the decoder. */
export const LAKE_PAGE_LEDGERS = 200
export const LAKE_PAGE_BYTES = 12 * 1024 * 1024

/**
 * A SEP-54 data lake (directory or http(s) URL) as an archive of past ledgers. The lake is opened
 * on first use (and again after a failed opening); its objects are read with its own retries.
 */
export function createDatalakeSource(location: string, options: DatalakeOptions = {}): LedgerArchive {
  let opening: Promise<Datalake> | null = null
  const open = (): Promise<Datalake> => {
    if (opening === null) {
      const attempt = openDatalake(location, options)
      opening = attempt
      attempt.catch(() => {
        if (opening === attempt) opening = null
      })
    }
    return opening
  }

  return {
    async *networks() {
      const lake = await open()
      yield { passphrase: lake.manifest.networkPassphrase, servedBy: `the data lake ${location} holds` }
    },
    async *pages(from, to, signal) {
      const lake = await open()
      // A lake object holds one ledger on mainnet: objects are gathered into pages as large as the
      // RPC's, since every page costs a hand-off to the decoding thread and a pass of the adapters.
      let gathered: SourceLedger[] = []
      let bytes = 0
      for await (const object of lake.ledgers(from, to, signal)) {
        for (const l of object) {
          gathered.push({ sequence: l.sequence, hash: null, meta: l.meta })
          bytes += l.meta.byteLength
        }
        if (gathered.length >= LAKE_PAGE_LEDGERS || bytes >= LAKE_PAGE_BYTES) {
          yield gathered
          gathered = []
          bytes = 0
        }
      }
      if (gathered.length > 0) yield gathered
    },
  }
}
