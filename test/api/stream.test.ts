import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer, type Indexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { PROTOCOLS } from '../../src/protocols/registry.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

// Every protocol active, so the followed accounts change in each.
const DEVNET = {
  seed: 'stream-of-changes',
  ledgers: 500,
  accounts: 12,
  activity: 0.06,
  ammActivity: 0.06,
  yieldActivity: 0.06,
  startLedger: 7000,
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field
type Json = any

/** One Server-Sent Event as the SSE format defines it, parsed here independently of the server. */
interface SseEvent {
  event: string | null
  id: string | null
  data: string
}

/** An open stream as a client reads it: its status, headers, events, comments and whether it ended. */
interface StreamClient {
  status: number
  headers: IncomingMessage['headers']
  events: SseEvent[]
  comments: string[]
  retry: number | null
  /** The last `id:` seen (SSE keeps it for the events after it). */
  lastId: string | null
  ended: Promise<void>
  /** Whether the stream has ended. */
  isEnded(): boolean
  body: () => string
  close(): void
  /** Resolves once `predicate` holds (checked at each chunk). */
  until(predicate: () => boolean): Promise<void>
}

/** Opens `url` and parses what arrives as SSE (a non-200 answer is kept as its body). */
function openStream(port: number, url: string, headers: Record<string, string>): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = httpRequest({ host: '127.0.0.1', port, path: url, headers }, (res) => {
      let buffer = ''
      let raw = ''
      const waiters: Array<{ predicate: () => boolean; resolve: () => void }> = []
      const check = () => {
        for (const w of [...waiters]) if (w.predicate()) waiters.splice(waiters.indexOf(w), 1) && w.resolve()
      }
      let ended!: () => void
      let over = false
      const client: StreamClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: [],
        retry: null,
        lastId: null,
        ended: new Promise((r) => {
          ended = r
        }),
        isEnded: () => over,
        body: () => raw,
        close: () => req.destroy(),
        until: (predicate) =>
          new Promise((r) => {
            if (predicate()) r()
            else waiters.push({ predicate, resolve: r })
          }),
      }
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        raw += chunk
        buffer += chunk
        let at = buffer.indexOf('\n\n')
        while (at >= 0) {
          const block = buffer.slice(0, at)
          buffer = buffer.slice(at + 2)
          let event: string | null = null
          let id: string | null = null
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) client.comments.push(line.slice(1).trim())
            else {
              const colon = line.indexOf(':')
              const field = colon < 0 ? line : line.slice(0, colon)
              const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
              if (field === 'event') event = value
              else if (field === 'id') id = value
              else if (field === 'data') data.push(value)
              else if (field === 'retry') client.retry = Number(value)
            }
          }
          if (id !== null) client.lastId = id
          if (data.length > 0) client.events.push({ event, id, data: data.join('\n') })
          at = buffer.indexOf('\n\n')
        }
        check()
      })
      const done = () => {
        over = true
        ended()
        check()
      }
      res.on('end', done)
      res.on('close', done)
      resolve(client)
    })
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
    })
    req.end()
  })
}

describe('GET /v1/stream/positions: the resumable stream of position changes', () => {
  let devnet: Devnet
  let t: TestApp
  let indexer: Indexer
  let key: string
  let port: number
  let start: number
  let addresses: string[]

  const get = async (url: string): Promise<Json> => {
    const response = await t.app.inject({ method: 'GET', url, headers: apiKey(key) })
    expect(response.statusCode, url).toBe(200)
    return response.json()
  }

  /** Every history item of the addresses and protocols in (after, upTo], in the stream's order. */
  const history = async (after: number, upTo: number) => {
    const items: Json[] = []
    for (const address of addresses) {
      for (const { name } of PROTOCOLS) {
        let url: string | null =
          `/v1/users/${address}/positions/${name}/history?from_ledger=${after + 1}&to_ledger=${upTo}&limit=500`
        while (url !== null) {
          const page = await get(url)
          for (const item of page.data.snapshots) items.push({ address, protocol: name, item })
          const cursor: string | null = page.meta.next_cursor
          url = cursor ? `/v1/users/${address}/positions/${name}/history?limit=500&cursor=${cursor}` : null
        }
      }
    }
    const order = (a: Json, b: Json) =>
      a.item.ledger - b.item.ledger ||
      (a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : 0) ||
      (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)
    return items.sort(order)
  }

  /** What an event says, in the shape `history` gives. */
  const fromEvent = (event: SseEvent) => {
    const body = JSON.parse(event.data)
    return { address: body.address, protocol: body.protocol, item: body.item }
  }

  const streamUrl = (query: string) => `/v1/stream/positions?addresses=${addresses.join(',')}&${query}`

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    t = await createTestApp({
      MAX_PRICE_AGE_S: '3600',
      RATE_LIMIT_PER_MINUTE: '1000000',
      STRATA_STREAM_HEARTBEAT_S: '1',
      STRATA_STREAM_POLL_MS: '20',
      // Shorter than the heartbeat test: a stream outlives the time a request has to arrive.
      STRATA_REQUEST_TIMEOUT_MS: '1000',
    })
    indexer = createIndexer({
      database: t.database,
      logger: createLogger('silent'),
      rpcUrl: devnet.url,
      network: devnet.network,
      batchSize: 20,
    })
    start = DEVNET.startLedger + 200
    await indexer.syncTo(start)
    key = (await createKey(t.app)).key
    // Every account the store holds a snapshot of (the devnet's accounts are few): the stream
    // follows them all, in every protocol.
    const rows = await t.database.db.selectFrom('snapshots').select('address').distinct().execute()
    addresses = rows.map((r) => String(r.address)).sort()
    expect(addresses.length).toBeGreaterThan(3)
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
  }, 240_000)

  afterAll(async () => {
    await t?.ctx.close()
    await t?.database.close()
    await t?.testDb.drop()
    await devnet?.close()
  })

  it('sends the history of the followed accounts, in order, while the indexer keeps indexing', async () => {
    const from = start - 60
    // Ledgers the devnet closes during the test, beyond the ones it had.
    for (let i = 0; i < 10; i++) devnet.chain.closeNextLedger()
    const end = devnet.latestLedger()
    const stream = await openStream(port, streamUrl(`from_ledger=${from}&to_ledger=${end}`), apiKey(key))
    expect(stream.status).toBe(200)
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(stream.headers['cache-control']).toBe('no-cache')
    expect(stream.headers['x-accel-buffering']).toBe('no')
    expect(stream.headers['content-encoding']).toBeUndefined()
    // The stored ledgers arrive first; then the indexer goes on, a few ledgers at a time.
    await stream.until(() => stream.lastId !== null && Number(stream.lastId) >= start - 5)
    for (let ledger = start + 25; ledger < end; ledger += 25) await indexer.syncTo(ledger)
    await indexer.syncTo(end)
    await stream.ended
    expect(stream.retry).toBe(2000)
    // The range's end is the last id; reconnecting with it (as EventSource does) is 204: stop.
    expect(stream.lastId).toBe(String(end))
    const again = await openStream(port, streamUrl(`from_ledger=${from}&to_ledger=${end}`), {
      ...apiKey(key),
      'last-event-id': stream.lastId!,
    })
    await again.ended
    expect(again.status).toBe(204)
    expect(again.body()).toBe('')

    const expected = await history(from, end)
    expect(expected.length).toBeGreaterThan(50)
    const received = stream.events.map(fromEvent)
    expect(received).toEqual(expected)
    for (const event of stream.events) expect(event.event).toBe('position.changed')
    // `id` is on the last event of each ledger, and only there.
    const ledgers = received.map((r) => r.item.ledger)
    stream.events.forEach((event, i) => {
      const last = ledgers[i + 1] !== ledgers[i]
      expect(event.id, `event ${i}`).toBe(last ? String(ledgers[i]) : null)
    })
    // Each event names the previous snapshot of its account in its protocol, as the history has it.
    const body = stream.events.map((e) => JSON.parse(e.data))
    for (const event of body.slice(0, 40)) {
      const page = await get(
        `/v1/users/${event.address}/positions/${event.protocol}/history?to_ledger=${event.ledger - 1}&limit=1`,
      )
      expect(event.previous_ledger).toBe(page.data.snapshots[0]?.ledger ?? null)
      expect(event.closed_at).toBe(event.item.closed_at)
      expect(event.type).toBe('position.changed')
    }
  }, 240_000)

  it('resumes with Last-Event-ID exactly after that ledger: the union is the history, with no gap', async () => {
    const end = (await t.ctx.reader.head()).lastIndexedLedger!
    const from = start - 120
    const first = await openStream(port, streamUrl(`from_ledger=${from}&to_ledger=${end}`), apiKey(key))
    await first.until(() => first.events.length >= 40)
    first.close()
    await first.ended
    // The client is cut in the middle of a ledger (after an event without an id): it kept the
    // events up to there, and the last id it saw is the ledger before.
    const cut = first.events.findIndex((event, i) => i >= 20 && event.id === null)
    expect(cut).toBeGreaterThan(0)
    const seen = first.events.slice(0, cut + 1)
    const lastId = seen.findLast((event) => event.id !== null)?.id ?? null
    expect(lastId).not.toBeNull()
    const second = await openStream(port, streamUrl(`to_ledger=${end}`), {
      ...apiKey(key),
      'last-event-id': lastId!,
    })
    await second.ended
    const a = seen.map(fromEvent)
    const b = second.events.map(fromEvent)
    // The second starts after the ledger of the last id; the first's events past it (a ledger
    // cut mid-way) are the only ones sent twice.
    expect(b.every((e) => e.item.ledger > Number(lastId))).toBe(true)
    const kept = a.filter((e) => e.item.ledger <= Number(lastId))
    const repeated = a.filter((e) => e.item.ledger > Number(lastId))
    expect(repeated.length).toBeGreaterThan(0)
    expect(new Set(repeated.map((e) => e.item.ledger)).size).toBe(1)
    // The ledger cut mid-way comes again whole, first.
    expect(b.slice(0, repeated.length)).toEqual(repeated)
    expect([...kept, ...b]).toEqual(await history(from, end))
  }, 120_000)

  it('sends heartbeats on a quiet stream, which stays open past the request timeout', async () => {
    const stream = await openStream(port, streamUrl('protocols=vaultprotocol'), apiKey(key))
    expect(stream.status).toBe(200)
    await stream.until(() => stream.comments.filter((c) => c === 'heartbeat').length >= 3)
    expect(stream.events).toEqual([])
    expect(stream.isEnded()).toBe(false)
    stream.close()
  }, 30_000)

  it('refuses a bad address or protocol before the stream starts', async () => {
    const bad = 'GBADADDRESS'
    const refused = await t.app.inject({
      method: 'GET',
      url: `/v1/stream/positions?addresses=${addresses[0]},${bad}`,
      headers: apiKey(key),
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error.code).toBe('invalid_address')
    expect(refused.json().error.message).toContain(bad)
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/v1/stream/positions?addresses=${addresses[0]}&protocols=vaultprotocol,nosuchprotocol`,
      headers: apiKey(key),
    })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error.code).toBe('invalid_request')
    expect(unknown.json().error.details[0].field).toBe('protocols')
    expect(unknown.json().error.message).toContain('nosuchprotocol')
    const id = await t.app.inject({
      method: 'GET',
      url: `/v1/stream/positions?addresses=${addresses[0]}`,
      headers: { ...apiKey(key), 'last-event-id': 'abc' },
    })
    expect(id.statusCode).toBe(400)
    expect(id.json().error.details[0].field).toBe('last-event-id')
  })

  it("answers HEAD with the stream's headers and no stream", async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/v1/stream/positions?addresses=${addresses[0]}`,
      headers: apiKey(key),
    })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(head.body).toBe('')
  })

  it("holds an organization to its plan's open streams, and frees a place when one closes", async () => {
    const own = (await createKey(t.app)).key
    const url = `/v1/stream/positions?addresses=${addresses[0]}`
    const one = await openStream(port, url, apiKey(own))
    const two = await openStream(port, url, apiKey(own))
    expect([one.status, two.status]).toEqual([200, 200])
    const three = await openStream(port, url, apiKey(own))
    await three.ended
    expect(three.status).toBe(429)
    const body = JSON.parse(three.body())
    expect(body.error.code).toBe('rate_limited')
    expect(body.error.message).toContain('allows 2 open streams')
    expect(typeof body.meta.request_id).toBe('string')
    one.close()
    await one.ended
    // The server sees the disconnection shortly after the client: a new stream opens then.
    let again: StreamClient | null = null
    for (let i = 0; i < 50 && again?.status !== 200; i++) {
      again = await openStream(port, url, apiKey(own))
      if (again.status !== 200) await new Promise((r) => setTimeout(r, 50))
    }
    expect(again?.status).toBe(200)
    two.close()
    again?.close()
  }, 30_000)

  it('ends every open stream when the app closes, without waiting for the shutdown timeout', async () => {
    const stream = await openStream(port, streamUrl(''), apiKey(key))
    expect(stream.status).toBe(200)
    await t.app.close()
    await stream.ended
    expect(stream.body().startsWith('retry: 2000\n\n')).toBe(true)
  }, 30_000)
})
