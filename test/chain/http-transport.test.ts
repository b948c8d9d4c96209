import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { nodeHttpTransport } from '../../src/chain/http-transport.ts'
import { createRpcClient } from '../../src/chain/rpc-client.ts'

const servers: ReturnType<typeof createServer>[] = []

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8')
    })
    req.on('end', () => handler(req, res, body))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
})

describe('node:http transport', () => {
  it('posts the body and reads a body of its Content-Length into a buffer of its own', async () => {
    const payload = Buffer.alloc(300_000, 'x')
    const seen: { method?: string; type?: string } = {}
    const url = await serve((req, res, body) => {
      seen.method = req.method
      seen.type = req.headers['content-type']
      res.writeHead(201, { 'content-length': payload.length + Buffer.byteLength(body), 'retry-after': '7' })
      // In pieces, as a large body arrives.
      res.write(payload.subarray(0, 100_000))
      setTimeout(() => res.end(Buffer.concat([payload.subarray(100_000), Buffer.from(body)])), 5)
    })
    const result = await nodeHttpTransport()(
      url,
      { method: 'POST', body: 'héllo', contentType: 'text/plain' },
      AbortSignal.timeout(5000),
    )
    expect(seen).toEqual({ method: 'POST', type: 'text/plain' })
    expect(result.status).toBe(201)
    expect(result.retryAfter).toBe('7')
    expect(result.bytes.toString('utf8')).toBe(`${'x'.repeat(300_000)}héllo`)
    // Transferable to another thread: the whole ArrayBuffer is the body.
    expect(result.bytes.byteOffset).toBe(0)
    expect(result.bytes.buffer.byteLength).toBe(result.bytes.length)
  })

  it('reads a body without Content-Length, and one the server compressed', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('compressed text'))
        return
      }
      res.writeHead(200) // chunked
      res.write('chunked ')
      res.end('text')
    })
    const request = nodeHttpTransport()
    const plain = await request(`${url}/plain`, { method: 'GET' }, AbortSignal.timeout(5000))
    expect(plain.bytes.toString()).toBe('chunked text')
    const gzip = await request(`${url}/gzip`, { method: 'GET' }, AbortSignal.timeout(5000))
    expect(gzip.bytes.toString()).toBe('compressed text')
  })

  it('follows a redirect', async () => {
    const target = await serve((_req, res) => res.writeHead(200).end('moved here'))
    const url = await serve((_req, res) => res.writeHead(307, { location: `${target}/x` }).end())
    const result = await nodeHttpTransport()(`${url}/a`, { method: 'GET' }, AbortSignal.timeout(5000))
    expect(result.status).toBe(200)
    expect(result.bytes.toString()).toBe('moved here')
  })

  it('rejects a body cut short of its Content-Length, which the RPC client retries', async () => {
    let calls = 0
    const url = await serve((_req, res) => {
      calls++
      if (calls === 1) {
        res.writeHead(200, { 'content-length': 1000 })
        res.write('{"jsonrpc"')
        res.socket?.destroy()
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          result: { status: 'healthy', latestLedger: 9, oldestLedger: 1, ledgerRetentionWindow: 9 },
        }),
      )
    })
    await expect(nodeHttpTransport()(url, { method: 'GET' }, AbortSignal.timeout(5000))).rejects.toThrow()
    calls = 0
    const retries: string[] = []
    const client = createRpcClient({
      url,
      baseDelayMs: 1,
      maxDelayMs: 1,
      onRetry: (i) => retries.push(i.error),
    })
    const health = await client.getHealth()
    expect(health.latestLedger).toBe(9)
    expect(retries).toHaveLength(1)
    expect(calls).toBe(2)
  })
})
