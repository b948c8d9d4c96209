// The API benchmark's in-process costs of the HTTP conventions on one answer: the ETag (a hash of
// the body without its per-request members) and each compression codec the API could offer, in
// CPU time per answer and bytes sent, measured in this process on the body of the vault answer.
import { brotliCompressSync, constants, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib'
import { answerTag, COMPRESSION_ENCODINGS } from '../src/api/http-conventions.ts'
import { round3 } from './api-env.ts'

export interface CodecCost {
  /** The codec and its setting. */
  codec: string
  /** Whether the API offers it (COMPRESSION_ENCODINGS). */
  offered: boolean
  bytes: number
  usPerAnswer: number
}

export interface HttpCosts {
  bodyBytes: number
  /** CPU time of `answerTag` on the body, µs. */
  etagUs: number
  codecs: CodecCost[]
}

/** Mean µs of `work` over repeated calls for about `ms` milliseconds, after a warm-up. */
function timeOf(work: () => unknown, ms = 400): number {
  for (let i = 0; i < 200; i++) work()
  let calls = 0
  const started = performance.now()
  let elapsed = 0
  while (elapsed < ms) {
    for (let i = 0; i < 100; i++) work()
    calls += 100
    elapsed = performance.now() - started
  }
  return round3((elapsed * 1000) / calls)
}

/** The ETag's and the codecs' cost on `body`. */
export function measureHttpCosts(body: string): HttpCosts {
  const offered = new Set<string>(COMPRESSION_ENCODINGS)
  const codecs: Array<[string, string, () => Buffer]> = [
    ['gzip (zlib default level 6)', 'gzip', () => gzipSync(body)],
    ['deflate (level 6)', 'deflate', () => deflateSync(body)],
    ['gzip level 1', '', () => gzipSync(body, { level: 1 })],
    [
      'br quality 4',
      'br',
      () => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
    ],
    ['br quality 11 (zlib default)', '', () => brotliCompressSync(body)],
    ['zstd (default level 3)', 'zstd', () => zstdCompressSync(body)],
  ]
  return {
    bodyBytes: Buffer.byteLength(body),
    etagUs: timeOf(() => answerTag(body)),
    codecs: codecs.map(([codec, encoding, compress]) => ({
      codec,
      offered: offered.has(encoding),
      bytes: compress().length,
      usPerAnswer: timeOf(compress, 300),
    })),
  }
}
