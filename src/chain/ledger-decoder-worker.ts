import { parentPort, workerData } from 'node:worker_threads'
import {
  type DecoderRequest,
  type DecoderResponse,
  type DecoderWorkerInit,
  decodeMeta,
  watchListFromInit,
} from './ledger-decoder.ts'

/** The decoding thread of `createLedgerDecoder`: one request at a time, answered in order. */
const watched = watchListFromInit(workerData as DecoderWorkerInit)

parentPort!.on('message', (request: DecoderRequest) => {
  let response: DecoderResponse
  try {
    response = {
      id: request.id,
      ledgers: request.metas.map((meta) => decodeMeta(meta, watched)),
    }
  } catch (error) {
    response = { id: request.id, error: (error as Error).message }
  }
  parentPort!.postMessage(response)
})
