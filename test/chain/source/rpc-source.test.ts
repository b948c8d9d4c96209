import { describe, expect, it } from 'vitest'
import { LedgerContinuityError } from '../../../src/chain/ledger-continuity.ts'
import {
  computeBackoffMs,
  createRpcClient,
  parseRetryAfterMs,
  RpcError,
} from '../../../src/chain/rpc-client.ts'
import { streamLedgerPages } from '../../../src/chain/source/rpc-source.ts'

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
  it("leaves each ledger's metadata where it stands in a getLedgers body, and parses the rest the same", async () => {
    const metas = ['AAAAAgAAAAA=', 'AAAAAQ+/AAAAAAAB', '']
    const body = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        ledgers: metas.map((m, i) => ({
          hash: `h${i}`,
          sequence: 10 + i,
          ledgerCloseTime: '7',
          metadataXdr: m,
        })),
        latestLedger: 20,
        oldestLedger: 1,
        cursor: '12',
      },
    }
    const client = createRpcClient({ url: 'http://rpc', fetch: stubFetch(() => json(body)) })
    const page = await client.getLedgerPage({ startLedger: 10, limit: 3 })
    expect(page).toMatchObject({ latestLedger: 20, oldestLedger: 1, cursor: '12' })
    expect(page.ledgers.map((l) => [l.hash, l.sequence, l.ledgerCloseTime])).toEqual([
      ['h0', 10, '7'],
      ['h1', 11, '7'],
      ['h2', 12, '7'],
    ])
    const text = (meta: (typeof page.ledgers)[number]['meta']) =>
      typeof meta === 'string'
        ? meta
        : Buffer.from(meta.body.subarray(meta.start, meta.end)).toString('latin1')
    expect(page.ledgers.map((l) => typeof l.meta)).toEqual(['object', 'object', 'object'])
    expect(page.ledgers.map((l) => text(l.meta))).toEqual(metas)
    expect(
      (await client.getLedgers({ startLedger: 10, limit: 3 })).ledgers.map((l) => l.metadataXdr),
    ).toEqual(metas)
  })

  it('reads an escaped metadata value through the JSON parser, and a body whose shape is not a page whole', async () => {
    // JSON may escape the solidus of base64: "\/" is "/".
    const escaped =
      '{"jsonrpc":"2.0","id":1,"result":{"ledgers":[{"hash":"a","sequence":5,"ledgerCloseTime":"1","metadataXdr":"AA\\/B"},' +
      '{"hash":"b","sequence":6,"ledgerCloseTime":"1","metadataXdr":"CCCC"}],"latestLedger":6,"oldestLedger":1,"cursor":"6"}}'
    const odd =
      '{"jsonrpc":"2.0","id":1,"result":{"ledgers":[],"latestLedger":6,"oldestLedger":1,"cursor":"6","note":{"metadataXdr":"DDDD"}}}'
    const answers = [escaped, odd]
    const client = createRpcClient({
      url: 'http://rpc',
      fetch: (async () => new Response(answers.shift()!, { status: 200 })) as typeof fetch,
    })
    const page = await client.getLedgerPage({ startLedger: 5, limit: 2 })
    const [first, second] = page.ledgers
    expect(first!.meta).toBe('AA/B')
    expect(
      typeof second!.meta === 'object' &&
        Buffer.from(second!.meta.body.subarray(second!.meta.start, second!.meta.end)).toString(),
    ).toBe('CCCC')
    const oddPage = await client.getLedgerPage({ startLedger: 5, limit: 2 })
    expect(oddPage.ledgers).toEqual([])
    expect(oddPage.cursor).toBe('6')
  })

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
    await expect(consume()).rejects.toThrow(LedgerContinuityError)
    await expect(consume()).rejects.toMatchObject({
      kind: 'sequence',
      message: 'ledger source out of sequence: expected ledger 7, got 8',
    })
  })
})
