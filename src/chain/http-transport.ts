import http from 'node:http'
import https from 'node:https'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/** What one request returned: its status, the headers the sources read, and its whole body. */
export interface HttpResult {
  status: number
  retryAfter: string | null
  bytes: Buffer
}

export type HttpRequest = (
  url: string,
  init: { method: 'GET' | 'POST'; body?: string; contentType?: string },
  signal: AbortSignal,
) => Promise<HttpResult>

/** Requests through a fetch function (tests, a URL other than http: or https:). */
export function fetchTransport(doFetch: typeof fetch): HttpRequest {
  return async (url, init, signal) => {
    const response = await doFetch(url, {
      method: init.method,
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.contentType !== undefined ? { headers: { 'content-type': init.contentType } } : {}),
      signal,
    })
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      bytes: Buffer.from(await response.arrayBuffer()),
    }
  }
}

/**
 * Requests over node:http(s) on kept-alive connections. A getLedgers page is tens of MB and a
 * backfill reads one data-lake object per ledger: fetch's web streams cost about 100 us of CPU per
 * mainnet-shaped ledger more than this, which reads a body straight into one buffer of its
 * Content-Length (a whole ArrayBuffer of its own, so it can be transferred to another thread).
 * A redirect is left to fetch, which follows it.
 */
export function nodeHttpTransport(): HttpRequest {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  }
  const viaFetch = fetchTransport(fetch)
  return (url, init, signal) =>
    new Promise<HttpResult>((resolve, reject) => {
      const target = new URL(url)
      const transport = target.protocol === 'https:' ? https : http
      const headers: Record<string, string | number> = {}
      if (init.contentType !== undefined) headers['content-type'] = init.contentType
      if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body)
      const request = transport.request(
        target,
        { method: init.method, agent: agents[target.protocol as 'http:' | 'https:'], signal, headers },
        (response) => {
          const status = response.statusCode ?? 0
          if (status >= 300 && status < 400 && response.headers.location !== undefined) {
            response.resume()
            viaFetch(url, init, signal).then(resolve, reject)
            return
          }
          const declared = Number(response.headers['content-length'])
          const sized = response.headers['content-length'] !== undefined && Number.isSafeInteger(declared)
          const whole = sized && declared >= 0 ? Buffer.allocUnsafeSlow(declared) : null
          const chunks: Buffer[] = []
          let received = 0
          response.on('data', (chunk: Buffer) => {
            if (whole !== null && received + chunk.length <= declared) chunk.copy(whole, received)
            else chunks.push(chunk)
            received += chunk.length
          })
          response.on('error', reject)
          response.on('aborted', () => reject(new Error('response aborted')))
          response.on('end', () => {
            if (whole !== null && received !== declared) {
              reject(new Error(`body of ${received} bytes, ${declared} declared`))
              return
            }
            let bytes: Buffer = whole ?? Buffer.concat(chunks)
            try {
              bytes = decompress(bytes, response.headers['content-encoding'])
            } catch (error) {
              reject(error)
              return
            }
            resolve({ status, retryAfter: response.headers['retry-after'] ?? null, bytes })
          })
        },
      )
      request.on('error', reject)
      request.end(init.body)
    })
}

/** A body a server compressed although not asked to. */
function decompress(bytes: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return bytes
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(bytes)
    case 'deflate':
      return inflateSync(bytes)
    case 'br':
      return brotliDecompressSync(bytes)
    default:
      throw new Error(`unsupported content-encoding ${encoding}`)
  }
}

/** node:http(s) for an http(s) URL without a given fetch; that fetch (or the global one) otherwise. */
export function httpTransport(url: string, doFetch: typeof fetch | undefined): HttpRequest {
  return doFetch === undefined && /^https?:\/\//i.test(url)
    ? nodeHttpTransport()
    : fetchTransport(doFetch ?? fetch)
}
