import { Worker } from 'node:worker_threads'
import {
  buildWatchedContracts,
  type DecodedLedger,
  decodeLedgerCloseMeta,
  decodeLedgerCloseMetaBase64,
  type WatchedContracts,
} from './decode-ledger.ts'
import type { Base64Span } from './rpc-client.ts'

/** Raw LedgerCloseMeta XDR: bytes (data lake), base64 (Stellar RPC), or base64 left in an RPC response body. */
export type RawMeta = string | Uint8Array | Base64Span

/**
 * Decodes pages of ledgers (base64 LedgerCloseMeta, as Stellar RPC serves them), in order. With a
 * worker thread, decoding runs beside the main thread, so on two cores the indexer fetches,
 * decodes and writes at once; without, it decodes in place (tests, one-core machines).
 */
export interface LedgerDecoder {
  /**
   * Raw LedgerCloseMeta XDR, as bytes (data lake) or base64 (Stellar RPC). The response bodies the
   * spans stand in are handed to the decoding thread, not copied: they are unusable after the call.
   */
  decode(metas: readonly RawMeta[]): Promise<DecodedLedger[]>
  close(): Promise<void>
}

/** What the worker needs to build the same watch list: plain data crosses threads. */
export interface DecoderWorkerInit {
  strkeys: string[]
  instanceStorage: string[]
  holders: Record<string, string[]>
  passphrase: string | null
}

export type DecoderRequest = { id: number; metas: readonly RawMeta[] }
export type DecoderResponse = { id: number; ledgers: DecodedLedger[] } | { id: number; error: string }

export function createLedgerDecoder(watched: WatchedContracts, options: { worker: boolean }): LedgerDecoder {
  if (!options.worker) {
    return {
      decode: async (metas) => metas.map((meta) => decodeMeta(meta, watched)),
      close: async () => {},
    }
  }
  const init: DecoderWorkerInit = {
    strkeys: [...watched.strkeys],
    instanceStorage: watched.strkeys.filter((_, i) => watched.instanceStorage[i]),
    holders: Object.fromEntries(
      watched.strkeys.flatMap((s, i) => {
        const list = watched.holders[i]
        return list ? [[s, [...list]]] : []
      }),
    ),
    passphrase: watched.passphrase,
  }
  const worker = new Worker(new URL('./ledger-decoder-worker.ts', import.meta.url), { workerData: init })
  // The indexer's own event loop keeps the process alive; an idle decoder must not.
  worker.unref()
  const waiting = new Map<number, { resolve: (l: DecodedLedger[]) => void; reject: (e: Error) => void }>()
  let nextId = 0
  let failure: Error | null = null
  const failAll = (error: Error) => {
    failure = error
    for (const { reject } of waiting.values()) reject(error)
    waiting.clear()
  }
  worker.on('message', (message: DecoderResponse) => {
    const job = waiting.get(message.id)
    if (!job) return
    waiting.delete(message.id)
    if ('error' in message) job.reject(new Error(message.error))
    else job.resolve(message.ledgers)
  })
  worker.on('error', (error) => failAll(error))
  worker.on('exit', (code) => failAll(new Error(`ledger decoder thread exited (${code})`)))
  return {
    decode(metas) {
      if (failure) return Promise.reject(failure)
      const id = nextId++
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        worker.ref()
        worker.postMessage({ id, metas } satisfies DecoderRequest, transferable(metas))
      }).finally(() => {
        if (waiting.size === 0) worker.unref()
      }) as Promise<DecodedLedger[]>
    },
    async close() {
      worker.removeAllListeners('exit')
      await worker.terminate()
    },
  }
}

/**
 * The response bodies that spans stand in, moved to the decoding thread rather than copied (each
 * once; only a body that is a whole ArrayBuffer of its own, as a fetched body is).
 */
function transferable(metas: readonly RawMeta[]): ArrayBuffer[] {
  const bodies = new Set<ArrayBuffer>()
  for (const meta of metas) {
    if (typeof meta === 'string' || meta instanceof Uint8Array) continue
    const { body } = meta
    if (
      body.buffer instanceof ArrayBuffer &&
      body.byteOffset === 0 &&
      body.byteLength === body.buffer.byteLength
    )
      bodies.add(body.buffer)
  }
  return [...bodies]
}

export function decodeMeta(meta: RawMeta, watched: WatchedContracts): DecodedLedger {
  if (typeof meta === 'string') return decodeLedgerCloseMetaBase64(meta, watched)
  if (meta instanceof Uint8Array) return decodeLedgerCloseMeta(meta, watched)
  const { body, start, end } = meta
  const text = Buffer.from(body.buffer, body.byteOffset + start, end - start).toString('latin1')
  return decodeLedgerCloseMetaBase64(text, watched)
}

/** The worker's watch list, rebuilt from plain data. */
export function watchListFromInit(init: DecoderWorkerInit): WatchedContracts {
  return buildWatchedContracts(init.strkeys, init.instanceStorage, init.holders, init.passphrase)
}
