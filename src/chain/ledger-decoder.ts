import { Worker } from 'node:worker_threads'
import {
  buildWatchedContracts,
  type DecodedLedger,
  decodeLedgerCloseMeta,
  decodeLedgerCloseMetaBase64,
  type WatchedContracts,
} from './decode-ledger.ts'

/**
 * Decodes pages of ledgers (base64 LedgerCloseMeta, as Stellar RPC serves them), in order. With a
 * worker thread, decoding runs beside the main thread, so on two cores the indexer fetches,
 * decodes and writes at once; without, it decodes in place (tests, one-core machines).
 */
export interface LedgerDecoder {
  /** Raw LedgerCloseMeta XDR, as bytes (data lake) or base64 (Stellar RPC). */
  decode(metas: readonly (string | Uint8Array)[]): Promise<DecodedLedger[]>
  close(): Promise<void>
}

/** What the worker needs to build the same watch list: plain data crosses threads. */
export interface DecoderWorkerInit {
  strkeys: string[]
  instanceStorage: string[]
  holders: Record<string, string[]>
  passphrase: string | null
}

export type DecoderRequest = { id: number; metas: readonly (string | Uint8Array)[] }
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
        worker.postMessage({ id, metas } satisfies DecoderRequest)
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

export function decodeMeta(meta: string | Uint8Array, watched: WatchedContracts): DecodedLedger {
  return typeof meta === 'string'
    ? decodeLedgerCloseMetaBase64(meta, watched)
    : decodeLedgerCloseMeta(meta, watched)
}

/** The worker's watch list, rebuilt from plain data. */
export function watchListFromInit(init: DecoderWorkerInit): WatchedContracts {
  return buildWatchedContracts(init.strkeys, init.instanceStorage, init.holders, init.passphrase)
}
