import { describe, expect, it } from 'vitest'
import { LedgerSequenceError, streamLedgerPages } from '../../src/chain/ledger-source.ts'
import { computeBackoffMs, createRpcClient, parseRetryAfterMs, RpcError } from '../../src/chain/rpc-client.ts'

type Handler = (method: string, params: Record<string, unknown>) => Response

function stubFetch(handler: Handler): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    const call = JSON.parse(String(init.body)) as { method: string; params?: Record<string, unknown> }
    return handler(call.method, call.params ?? {})
  }) as typeof fetch
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

function ledgersPage(sequences: number[], latest: number, metadataBytes = 0) {
  return json({
    jsonrpc: '2.0',
    id: 1,
    result: {
      ledgers: sequences.map((s) => ({
        hash: 'aa',
        sequence: s,
        ledgerCloseTime: '0',
        metadataXdr: 'A'.repeat(metadataBytes),
      })),
      latestLedger: latest,
      oldestLedger: 1,
      cursor: String(sequences[sequences.length - 1] ?? 0),
    },
  })
}

describe('createRpcClient', () => {
  it('retries 5xx, 429 and broken bodies, then answers', async () => {
    const answers = [
      () => new Response('oops', { status: 503 }),
      () => new Response('slow', { status: 429, headers: { 'retry-after': '0' } }),
      () => new Response('{"jsonrpc":"2.0","res', { status: 200 }),
      () => json({ jsonrpc: '2.0', id: 1, result: { id: 'x', protocolVersion: 23, sequence: 42 } }),
    ]
    const retries: string[] = []
    const client = createRpcClient({
      url: 'http://rpc',
      baseDelayMs: 1,
      fetch: stubFetch(() => answers.shift()!()),
      onRetry: (info) => retries.push(info.error),
    })
    expect((await client.getLatestLedger()).sequence).toBe(42)
    expect(retries).toHaveLength(3)
  })

  it('does not retry a JSON-RPC error about the request', async () => {
    let calls = 0
    const client = createRpcClient({
      url: 'http://rpc',
      baseDelayMs: 1,
      fetch: stubFetch(() => {
        calls++
        return json({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad limit' } })
      }),
    })
    await expect(client.getLedgers({ startLedger: 1, limit: 500 })).rejects.toThrow(RpcError)
    expect(calls).toBe(1)
  })

  it('gives up after maxAttempts', async () => {
    const client = createRpcClient({
      url: 'http://rpc',
      baseDelayMs: 1,
      maxAttempts: 3,
      fetch: stubFetch(() => new Response('', { status: 500 })),
    })
    await expect(client.getHealth()).rejects.toThrow(/HTTP 500/)
  })

  it('reads Retry-After as seconds or a date, and never backs off below it', () => {
    expect(parseRetryAfterMs('3')).toBe(3000)
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000)
    expect(parseRetryAfterMs(null)).toBe(0)
    for (let i = 0; i < 20; i++) {
      expect(computeBackoffMs(i, 100, 1000, 2500)).toBe(2500)
      expect(computeBackoffMs(i, 100, 1000)).toBeLessThanOrEqual(1000)
    }
  })
})

describe('streamLedgerPages', () => {
  it('delivers contiguous pages and stops at the end ledger', async () => {
    const client = createRpcClient({
      url: 'http://rpc',
      fetch: stubFetch((method, params) => {
        if (method === 'getLatestLedger')
          return json({ jsonrpc: '2.0', id: 1, result: { id: 'x', protocolVersion: 23, sequence: 20 } })
        const pagination = params.pagination as { cursor?: string; limit: number }
        const start = pagination.cursor ? Number(pagination.cursor) + 1 : Number(params.startLedger)
        return ledgersPage(
          Array.from({ length: pagination.limit }, (_, i) => start + i),
          20,
        )
      }),
    })
    const seen: number[] = []
    for await (const page of streamLedgerPages({ client, startLedger: 3, endLedger: 12, pageSize: 4 })) {
      seen.push(...page.ledgers.map((l) => l.sequence))
    }
    expect(seen).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
  })

  it('sizes pages by bytes as well as count: heavy ledgers make smaller pages', async () => {
    const limits: number[] = []
    const client = createRpcClient({
      url: 'http://rpc',
      fetch: stubFetch((method, params) => {
        if (method === 'getLatestLedger')
          return json({ jsonrpc: '2.0', id: 1, result: { id: 'x', protocolVersion: 23, sequence: 500 } })
        const pagination = params.pagination as { cursor?: string; limit: number }
        limits.push(pagination.limit)
        const start = pagination.cursor ? Number(pagination.cursor) + 1 : Number(params.startLedger)
        // Ledgers weigh 1,000 bytes each; the page budget is 10,000.
        return ledgersPage(
          Array.from({ length: pagination.limit }, (_, i) => start + i),
          500,
          1000,
        )
      }),
    })
    let delivered = 0
    for await (const page of streamLedgerPages({
      client,
      startLedger: 1,
      endLedger: 100,
      pageSize: 50,
      maxPageBytes: 10_000,
    })) {
      delivered += page.ledgers.length
    }
    expect(delivered).toBe(100)
    // The first page cannot know the size; every later one holds at most 10 ledgers.
    expect(limits[0]).toBe(50)
    expect(limits.slice(1).every((limit) => limit <= 10)).toBe(true)
  })

  it('throws on a skipped ledger instead of leaving a hole', async () => {
    const client = createRpcClient({
      url: 'http://rpc',
      fetch: stubFetch((method) =>
        method === 'getLatestLedger'
          ? json({ jsonrpc: '2.0', id: 1, result: { id: 'x', protocolVersion: 23, sequence: 20 } })
          : ledgersPage([5, 6, 8], 20),
      ),
    })
    const consume = async () => {
      for await (const _ of streamLedgerPages({ client, startLedger: 5 })) {
        // drain
      }
    }
    await expect(consume()).rejects.toThrow(LedgerSequenceError)
  })
})
