import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { zstdDecompress } from 'node:zlib'
import { Reader } from '@stellar/js-xdr'
import { xdr } from '@stellar/stellar-sdk'
import { type HttpResult, httpTransport } from './http-transport.ts'
import { computeBackoffMs, sleep } from './rpc-client.ts'

/**
 * The public ledger data lake (SEP-54, as Galexie writes it; notes: mainnet.md §3): a `.config.json`
 * manifest and zstd-compressed XDR `LedgerCloseMetaBatch` objects under keys that invert the ledger
 * number, so listings show the newest first. Read from a local directory or over HTTP(S).
 */
export interface DatalakeManifest {
  networkPassphrase: string
  version?: string
  compression: string
  ledgersPerBatch: number
  batchesPerPartition: number
}

/** One ledger as the lake holds it: its raw LedgerCloseMeta XDR. */
export interface LakeLedger {
  sequence: number
  meta: Uint8Array
}

const hex8 = (n: number) => n.toString(16).toUpperCase().padStart(8, '0')

/**
 * The object key of the file holding `sequence`: `GetObjectKeyFromSequenceNumber` of the Go
 * datastore package. The partition folder is omitted when a partition holds a single file.
 */
export function objectKey(sequence: number, manifest: DatalakeManifest, extension: string): string {
  const perFile = manifest.ledgersPerBatch
  const perPartition = perFile * manifest.batchesPerPartition
  let key = ''
  if (manifest.batchesPerPartition > 1) {
    const partStart = Math.floor(sequence / perPartition) * perPartition
    key = `${hex8(0xffffffff - partStart)}--${partStart}-${partStart + perPartition - 1}/`
  }
  const fileStart = Math.floor(sequence / perFile) * perFile
  const fileEnd = fileStart + perFile - 1
  key += `${hex8(0xffffffff - fileStart)}--${fileStart}${fileStart !== fileEnd ? `-${fileEnd}` : ''}.xdr.${extension}`
  return key
}

/** The lake is malformed or does not hold what was asked: never retried, never skipped. */
export class DatalakeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DatalakeError'
  }
}

class TransientLakeError extends Error {}

/** Decompression runs on libuv's thread pool: the indexer's main thread adapts and writes meanwhile. */
const unzstd = promisify(zstdDecompress)

export function parseManifest(value: unknown, source: string): DatalakeManifest {
  const m = value as Partial<DatalakeManifest> | null
  const problems: string[] = []
  if (typeof m?.networkPassphrase !== 'string' || m.networkPassphrase === '')
    problems.push('networkPassphrase')
  if (m?.compression !== 'zstd')
    problems.push(`compression (only zstd is read, got ${String(m?.compression)})`)
  if (!Number.isInteger(m?.ledgersPerBatch) || (m?.ledgersPerBatch ?? 0) < 1) problems.push('ledgersPerBatch')
  if (!Number.isInteger(m?.batchesPerPartition) || (m?.batchesPerPartition ?? 0) < 1)
    problems.push('batchesPerPartition')
  if (problems.length > 0)
    throw new DatalakeError(`${source}/.config.json is not a data-lake manifest: ${problems.join(', ')}`)
  return m as DatalakeManifest
}

/**
 * The ledgers of one object: a `LedgerCloseMetaBatch{startSequence, endSequence, ledgerCloseMetas<>}`.
 * A one-ledger batch (the public lake's layout) is sliced without decoding its ledger; larger ones
 * are read ledger by ledger with the SDK's schema, each slice being exactly that ledger's bytes.
 */
export function splitBatch(bytes: Uint8Array, fileStart: number, fileEnd: number): LakeLedger[] {
  const reader = new Reader(bytes)
  const start = reader.readUint32('startSequence')
  const end = reader.readUint32('endSequence')
  const count = reader.readUint32('ledgerCloseMetas.length')
  if (start < fileStart || end > fileEnd || end < start || end - start + 1 !== count) {
    throw new DatalakeError(
      `batch holds ledgers ${start}-${end} (${count}), not a part of ${fileStart}-${fileEnd}`,
    )
  }
  const out: LakeLedger[] = []
  if (count === 1) {
    // The batch ends with its one ledger: the rest of the bytes are that ledger.
    out.push({ sequence: start, meta: bytes.subarray(reader.offset) })
    return out
  }
  for (let i = 0; i < count; i++) {
    const from = reader.offset
    xdr.LedgerCloseMeta.schema._read(reader, `ledgerCloseMetas[${i}]`)
    out.push({ sequence: start + i, meta: bytes.subarray(from, reader.offset) })
  }
  reader.done('LedgerCloseMetaBatch')
  return out
}

export interface DatalakeOptions {
  /** Objects fetched ahead, in parallel. */
  prefetch?: number
  timeoutMs?: number
  maxAttempts?: number
  baseDelayMs?: number
  maxDelayMs?: number
  fetch?: typeof fetch
  onRetry?: (info: { key: string; attempt: number; delayMs: number; error: string }) => void
}

export interface Datalake {
  manifest: DatalakeManifest
  /** Ledgers `from`..`to` (inclusive) in strict order, in pages of one object each. */
  ledgers(from: number, to: number, signal?: AbortSignal): AsyncGenerator<LakeLedger[]>
}

/** Opens a lake at a directory path, a `file://` URL or an `http(s)://` URL. */
export async function openDatalake(location: string, options: DatalakeOptions = {}): Promise<Datalake> {
  const remote = /^https?:\/\//.test(location)
  const root = remote
    ? location.replace(/\/+$/, '')
    : location.startsWith('file:')
      ? fileURLToPath(location)
      : location
  const request = httpTransport(root, options.fetch)
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxAttempts = options.maxAttempts ?? 8

  /** One object's bytes, or null when it does not exist. Transient failures throw TransientLakeError. */
  async function readObject(key: string, signal?: AbortSignal): Promise<Uint8Array | null> {
    if (!remote) {
      try {
        return await readFile(join(root, key))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    }
    let response: HttpResult
    try {
      const timeout = AbortSignal.timeout(timeoutMs)
      response = await request(
        `${root}/${key}`,
        { method: 'GET' },
        signal ? AbortSignal.any([signal, timeout]) : timeout,
      )
    } catch (error) {
      signal?.throwIfAborted()
      throw new TransientLakeError(`${key}: ${(error as Error).message}`)
    }
    if (response.status === 404 || response.status === 403) return null
    if (response.status === 429 || response.status >= 500)
      throw new TransientLakeError(`${key}: HTTP ${response.status}`)
    if (response.status < 200 || response.status >= 300)
      throw new DatalakeError(`${key}: HTTP ${response.status}`)
    return response.bytes
  }

  async function withRetry<T>(key: string, attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await attempt()
      } catch (error) {
        if (!(error instanceof TransientLakeError) || i + 1 >= maxAttempts) throw error
        const delayMs = computeBackoffMs(i, options.baseDelayMs ?? 250, options.maxDelayMs ?? 10_000)
        options.onRetry?.({ key, attempt: i + 1, delayMs, error: error.message })
        await sleep(delayMs, signal)
      }
    }
  }

  const manifestBytes = await withRetry('.config.json', () => readObject('.config.json'))
  if (manifestBytes === null) throw new DatalakeError(`${location} has no .config.json: not a data lake`)
  let manifestJson: unknown
  try {
    manifestJson = JSON.parse(Buffer.from(manifestBytes).toString('utf8'))
  } catch {
    throw new DatalakeError(`${location}/.config.json is not JSON`)
  }
  const manifest = parseManifest(manifestJson, location)
  // Current writers use `.xdr.zst`, stores made before Galexie 23 `.xdr.zstd`: found on first read.
  let extension: string | null = null

  /** The decompressed, split object holding ledger `first`; zstd failures on a cut body are retried. */
  async function loadObject(first: number, signal?: AbortSignal): Promise<LakeLedger[]> {
    const fileStart = Math.floor(first / manifest.ledgersPerBatch) * manifest.ledgersPerBatch
    const candidates = extension ? [extension] : ['zst', 'zstd']
    for (const ext of candidates) {
      const key = objectKey(first, manifest, ext)
      const ledgers = await withRetry(
        key,
        async () => {
          const bytes = await readObject(key, signal)
          if (bytes === null) return null
          let raw: Uint8Array
          try {
            raw = await unzstd(bytes)
          } catch (error) {
            throw new TransientLakeError(`${key}: not zstd (${(error as Error).message})`)
          }
          return splitBatch(raw, fileStart, fileStart + manifest.ledgersPerBatch - 1)
        },
        signal,
      )
      if (ledgers !== null) {
        extension = ext
        return ledgers
      }
    }
    throw new DatalakeError(
      `ledger ${first} is not in the data lake at ${location} (${objectKey(first, manifest, candidates[0]!)})`,
    )
  }

  async function* ledgers(from: number, to: number, signal?: AbortSignal): AsyncGenerator<LakeLedger[]> {
    const perFile = manifest.ledgersPerBatch
    const starts: number[] = []
    for (let s = Math.floor(from / perFile) * perFile; s <= to; s += perFile) starts.push(s)
    const window = Math.max(1, options.prefetch ?? 8)
    const pending: Promise<LakeLedger[]>[] = []
    let next = 0
    const fill = () => {
      while (pending.length < window && next < starts.length) {
        const p = loadObject(Math.max(starts[next]!, from), signal)
        p.catch(() => {})
        pending.push(p)
        next++
      }
    }
    // The first object is read alone: it settles the extension for the parallel reads after it.
    if (starts.length > 0) {
      const first = loadObject(Math.max(starts[0]!, from), signal)
      pending.push(first)
      next = 1
      await first.catch(() => {})
    }
    let expected = from
    while (pending.length > 0) {
      fill()
      const page = (await pending.shift()!).filter((l) => l.sequence >= from && l.sequence <= to)
      for (const ledger of page) {
        if (ledger.sequence !== expected)
          throw new DatalakeError(`data lake out of order: expected ${expected}, got ${ledger.sequence}`)
        expected++
      }
      if (page.length > 0) yield page
    }
    if (expected !== to + 1)
      throw new DatalakeError(`data lake ended at ledger ${expected - 1}, before ${to}`)
  }

  return { manifest, ledgers }
}
