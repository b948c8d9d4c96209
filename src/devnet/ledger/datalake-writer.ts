import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { xdr } from '@stellar/stellar-sdk'
import { type DatalakeManifest, objectKey } from '../../chain/datalake.ts'
import type { DevnetChain } from '../world/chain.ts'

export interface WriteDatalakeOptions {
  ledgersPerFile?: number
  filesPerPartition?: number
  /** `zst` as current Galexie writes; `zstd` as stores made before its version 23. */
  extension?: 'zst' | 'zstd'
  /** The range written; the devnet's whole history by default. */
  from?: number
  to?: number
}

/**
 * Writes the devnet's ledgers as a SEP-54 data lake (the layout Galexie writes): `.config.json`, then
 * one zstd-compressed XDR `LedgerCloseMetaBatch` per file, under the inverted-hex keys.
 */
export async function writeDatalake(chain: DevnetChain, dir: string, options: WriteDatalakeOptions = {}) {
  const manifest: DatalakeManifest = {
    networkPassphrase: chain.passphrase,
    version: '1.0',
    compression: 'zstd',
    ledgersPerBatch: options.ledgersPerFile ?? 1,
    batchesPerPartition: options.filesPerPartition ?? 64_000,
  }
  const extension = options.extension ?? 'zst'
  const from = options.from ?? chain.oldestLedger()
  const to = options.to ?? chain.latestLedger()
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, '.config.json'), `${JSON.stringify(manifest)}\n`)
  const perFile = manifest.ledgersPerBatch
  let files = 0
  for (let start = Math.floor(from / perFile) * perFile; start <= to; start += perFile) {
    const first = Math.max(start, from)
    const last = Math.min(start + perFile - 1, to)
    const metas: xdr.LedgerCloseMetaWire[] = []
    for (let s = first; s <= last; s++) metas.push(xdr.LedgerCloseMeta.schema.decode(chain.ledgerMetaXdr(s)))
    const batch = xdr.LedgerCloseMetaBatch.schema.encode({
      startSequence: first,
      endSequence: last,
      ledgerCloseMetas: metas,
    })
    const path = join(dir, objectKey(first, manifest, extension))
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, zstdCompressSync(batch))
    files++
  }
  return { manifest, files }
}
