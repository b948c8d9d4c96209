import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parse } from 'csv-parse/sync'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prefersCsv, sendCsv } from '../../src/api/csv.ts'
import { compileSurfaceSerializers, dataDeps } from '../../src/api/route-helpers.ts'
import { createActivityPages } from '../../src/positions/activities.ts'
import { activityRecords, csvTable, historyRecords } from '../../src/positions/csv.ts'
import { PROTOCOLS } from '../../src/protocols/registry.ts'
import { createActivitiesReader } from '../../src/store/activities.ts'
import { apiKey } from '../support/factories.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'

// Every protocol active, so histories, activities and TVL have rows in each.
const DEVNET = {
  seed: 'csv-export',
  ledgers: 900,
  accounts: 30,
  activity: 0.04,
  ammActivity: 0.05,
  yieldActivity: 0.05,
  startLedger: 5000,
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field
type Json = any

/**
 * A JSON value as the export documents its cell, written here independently of the export's code:
 * a string as it is, an integer or a boolean as JSON writes it, null or absent as an empty cell,
 * an object as its JSON text.
 */
const cell = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value)

/** A CSV body parsed back (RFC 4180): its header and its rows as objects by column. */
function parseCsv(body: string): { header: string[]; rows: Array<Record<string, string>> } {
  const records = parse(body, { relax_column_count: false }) as string[][]
  const [header = [], ...rest] = records
  return { header, rows: rest.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!]))) }
}

describe('CSV export: history, activities and TVL parse back to the JSON answers', () => {
  let world: IndexedDevnet
  let last: number

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { batchSize: 100 })
    last = (await world.t.ctx.reader.head()).lastIndexedLedger!
  }, 240_000)

  afterAll(async () => {
    await world?.close()
  })

  const raw = (url: string, headers: Record<string, string> = {}) =>
    world.t.app.inject({ method: 'GET', url, headers: { ...apiKey(world.key), ...headers } })

  /** Every JSON page of a paged list, following `next_cursor` to the end; the items and the first page. */
  const allPages = async (url: string, list: (body: Json) => Json[]) => {
    const items: Json[] = []
    let cursor: string | null = null
    let first: Json
    let pages = 0
    do {
      const sep = url.includes('?') ? '&' : '?'
      const { status, body }: { status: number; body: Json } = await world.get(
        `${url}${sep}limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(status, JSON.stringify(body)).toBe(200)
      first ??= body
      items.push(...list(body))
      cursor = body.meta.next_cursor
      pages++
    } while (cursor !== null)
    return { items, first, pages }
  }

  /** The CSV answer of `url`: checked as a CSV attachment, parsed. */
  const csvOf = async (url: string) => {
    const response = await raw(`${url}${url.includes('?') ? '&' : '?'}format=csv`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(String(response.headers['content-disposition'])).toMatch(/^attachment; filename="[^"]+\.csv"$/)
    // Header field names are case-insensitive: the Vary of every data answer names accept.
    expect(String(response.headers.vary)).toMatch(/\baccept\b/i)
    // RFC 4180: every record ends with CRLF, the last one included.
    expect(response.body.endsWith('\r\n')).toBe(true)
    return { response, ...parseCsv(response.body) }
  }

  /** The address with the most snapshots in a protocol (read from the store). */
  const busiest = async (protocol: string): Promise<string> => {
    const row = await world.t.database.db
      .selectFrom('snapshots')
      .select(['address', (eb) => eb.fn.countAll<number>().as('n')])
      .where('protocol', '=', protocol)
      .groupBy('address')
      .orderBy('n', 'desc')
      .orderBy('address')
      .executeTakeFirstOrThrow()
    return row.address
  }

  /** Every cell of the CSV rows against the rows expected from the JSON, and the header covers them. */
  const expectRows = (csv: ReturnType<typeof parseCsv>, expected: Array<Record<string, unknown>>) => {
    expect(csv.rows).toHaveLength(expected.length)
    for (const [i, want] of expected.entries()) {
      for (const column of Object.keys(want)) expect(csv.header, column).toContain(column)
      const got = csv.rows[i]!
      // Columns the JSON row does not have (an optional field it omits) are empty cells.
      const full = Object.fromEntries(csv.header.map((h) => [h, h in want ? cell(want[h]) : '']))
      expect(got, `row ${i}`).toEqual(full)
    }
  }

  for (const module of PROTOCOLS) {
    it(`history of ${module.name}: every snapshot of every page, one row per position row`, async () => {
      const address = await busiest(module.name)
      const url = `/v1/users/${address}/positions/${module.name}/history`
      const { items, first, pages } = await allPages(url, (b) => b.data.snapshots)
      expect(pages).toBeGreaterThan(1)
      const csv = await csvOf(url)
      const listKey = module.name === 'vaultprotocol' ? 'vaults' : 'positions'
      const expected = items.flatMap((item: Json) => {
        const base = {
          ledger: item.ledger,
          closed_at: item.closed_at,
          valuation_ledger: item.valuation_ledger,
          address: item.data.address,
          oracle_staleness_seconds: item.oracle_staleness_seconds,
          partial_result: item.partial_result,
        }
        const rows: Json[] = item.data[listKey]
        if (rows.length === 0) return [base]
        return rows.map((r) => ({
          ...base,
          ...Object.fromEntries(Object.entries(r).map(([k, v]) => [`${listKey}.${k}`, v])),
        }))
      })
      expect(csv.header.slice(0, 4)).toEqual(['ledger', 'closed_at', 'valuation_ledger', 'address'])
      expect(csv.header.slice(-2)).toEqual(['oracle_staleness_seconds', 'partial_result'])
      expectRows(csv, expected)
      expect(expected.some((r) => `${listKey}.amount_usd` in r || `${listKey}.collateral` in r)).toBe(true)
      expect(csv.response.headers['strata-last-indexed-ledger']).toBe(String(first.meta.last_indexed_ledger))
      expect(csv.response.headers['strata-indexed-from-ledger']).toBe(String(first.meta.indexed_from_ledger))
      expect(csv.response.headers['strata-partial-result']).toBe('false')
      expect(csv.response.headers['content-disposition']).toBe(
        `attachment; filename="${address}-${module.name}-history.csv"`,
      )
    })
  }

  it('history over a range: the range only, and a range above the head is partial', async () => {
    const address = await busiest('lendingprotocol')
    const from = 5200
    const to = last + 10
    const url = `/v1/users/${address}/positions/lendingprotocol/history?from_ledger=${from}&to_ledger=${to}`
    const { items } = await allPages(url, (b) => b.data.snapshots)
    const csv = await csvOf(url)
    const ledgers = [...new Set(csv.rows.map((r) => Number(r.ledger)))]
    expect(ledgers).toEqual(items.map((i: Json) => i.ledger))
    expect(ledgers.every((l) => l >= from && l <= last)).toBe(true)
    expect(csv.response.headers['strata-partial-result']).toBe('true')
  })

  it('activities: every action of every page, one row per leg, details as JSON text', async () => {
    const row = await world.t.database.db
      .selectFrom('account_activities')
      .select(['account', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('account')
      .orderBy('n', 'desc')
      .orderBy('account')
      .executeTakeFirstOrThrow()
    const url = `/v1/users/${row.account}/activities`
    const { items, first, pages } = await allPages(url, (b) => b.data.activities)
    expect(pages).toBeGreaterThan(2)
    const csv = await csvOf(url)
    const expected = items.flatMap((a: Json) => {
      const { legs, details, ...rest } = a
      const base = { ...rest, details }
      if (legs.length === 0) return [{ ...base, leg: null }]
      return legs.map((leg: Json, i: number) => ({
        ...base,
        leg: i,
        ...Object.fromEntries(Object.entries(leg).map(([k, v]) => [`legs.${k}`, v])),
      }))
    })
    expectRows(csv, expected)
    // Nulls are empty cells, distinguishable from a zero; details parse back to the JSON's.
    expect(csv.rows.some((r) => r['legs.usd_unavailable_reason'] === '')).toBe(true)
    for (const [i, r] of csv.rows.entries()) expect(JSON.parse(r.details!)).toEqual(expected[i]!.details)
    expect(csv.header.indexOf('leg')).toBe(csv.header.indexOf('legs.role') - 1)
    expect(csv.response.headers['strata-last-indexed-ledger']).toBe(String(first.meta.last_indexed_ledger))
    expect(csv.response.headers['strata-partial-result']).toBe(String(first.meta.partial_result))
  })

  it('activities filtered by protocol and range, from a cursor on', async () => {
    const row = await world.t.database.db
      .selectFrom('account_activities')
      .select(['account', (eb) => eb.fn.countAll<number>().as('n')])
      .where('protocol', '=', 'ammprotocol')
      .groupBy('account')
      .orderBy('n', 'desc')
      .orderBy('account')
      .executeTakeFirstOrThrow()
    const url = `/v1/users/${row.account}/activities?protocol=ammprotocol&from_ledger=5100&to_ledger=5800`
    const { items } = await allPages(url, (b) => b.data.activities)
    expect(items.length).toBeGreaterThan(7)
    const firstPage = await world.get(`${url}&limit=7`)
    const csv = await csvOf(`${url}&cursor=${firstPage.body.meta.next_cursor}`)
    const keys = [...new Set(csv.rows.map((r) => `${r.ledger}/${r.tx_hash}/${r.event_index}`))]
    expect(keys).toEqual(items.slice(7).map((a: Json) => `${a.ledger}/${a.tx_hash}/${a.event_index}`))
    expect(csv.rows.every((r) => r.protocol === 'ammprotocol')).toBe(true)
  })

  it('the activity series: one row per bucket', async () => {
    const row = await world.t.database.db
      .selectFrom('account_activities')
      .select(['account', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('account')
      .orderBy('n', 'desc')
      .orderBy('account')
      .executeTakeFirstOrThrow()
    const url = `/v1/users/${row.account}/activities/series?interval=hour`
    const { status, body } = await world.get(url)
    expect(status).toBe(200)
    expect(body.data.buckets.length).toBeGreaterThan(0)
    const csv = await csvOf(url)
    expect(csv.header).toEqual(Object.keys(body.data.buckets[0]))
    expectRows(csv, body.data.buckets)
  })

  for (const module of PROTOCOLS.filter((p) => p.tvl)) {
    it(`TVL of ${module.name}: a series, one row per asset of each point, and a point`, async () => {
      const url = `/v1/protocols/${module.name}/tvl?interval=hour&to_ledger=${last}`
      const { status, body } = await world.get(url)
      expect(status).toBe(200)
      const csv = await csvOf(url)
      const flat = (point: Json) => {
        const { assets, ...rest } = point
        if (assets.length === 0) return [rest]
        return assets.map((a: Json) => ({
          ...rest,
          ...Object.fromEntries(Object.entries(a).map(([k, v]) => [`assets.${k}`, v])),
        }))
      }
      const expected = body.data.points.flatMap(flat)
      expect(body.data.points.length).toBeGreaterThan(0)
      expect(expected.length).toBeGreaterThan(body.data.points.length)
      expectRows(csv, expected)
      expect(csv.response.headers['strata-partial-result']).toBe(String(body.meta.partial_result))

      const point = await world.get(`/v1/protocols/${module.name}/tvl?as_of_ledger=${last - 5}`)
      const pointCsv = await csvOf(`/v1/protocols/${module.name}/tvl?as_of_ledger=${last - 5}`)
      expectRows(pointCsv, flat(point.body.data))
      expect(pointCsv.response.headers['strata-as-of-ledger']).toBe(
        cell(point.body.meta.as_of_ledger) || undefined,
      )
    })
  }

  it('Accept: text/csv gives the same bytes as format=csv; format wins over Accept; */* stays JSON', async () => {
    const address = await busiest('vaultprotocol')
    const url = `/v1/users/${address}/positions/vaultprotocol/history`
    const byFormat = await raw(`${url}?format=csv`)
    const byAccept = await raw(url, { accept: 'text/csv' })
    expect(byAccept.statusCode).toBe(200)
    expect(byAccept.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(byAccept.body).toBe(byFormat.body)
    const preferred = await raw(url, { accept: 'application/json;q=0.5, text/csv' })
    expect(preferred.body).toBe(byFormat.body)
    for (const [query, accept] of [
      ['?format=json', 'text/csv'],
      ['', '*/*'],
      ['', 'text/csv;q=0.2, application/json'],
      ['', 'text/csv, application/json'],
    ] as const) {
      const json = await raw(`${url}${query}`, { accept })
      expect(json.headers['content-type'], `${query} ${accept}`).toMatch(/^application\/json/)
      expect(json.json().data.address).toBe(address)
    }
  })

  it('refuses with the JSON error envelope: an unknown format, an invalid address, a limit', async () => {
    const address = await busiest('vaultprotocol')
    const xml = await raw(`/v1/users/${address}/positions/vaultprotocol/history?format=xml`)
    expect(xml.statusCode).toBe(400)
    expect(xml.json().error.details.map((d: Json) => d.field)).toEqual(['format'])
    expect(xml.json().error.message).toMatch(/^format must be/)

    const bad = await raw('/v1/users/GNOTANADDRESS/activities?format=csv')
    expect(bad.statusCode).toBe(400)
    expect(bad.headers['content-type']).toMatch(/^application\/json/)
    expect(bad.json().error.code).toBe('invalid_address')

    const badHistory = await raw('/v1/users/GNOTANADDRESS/positions/ammprotocol/history', {
      accept: 'text/csv',
    })
    expect(badHistory.statusCode).toBe(400)
    expect(badHistory.json().error.code).toBe('invalid_address')

    for (const url of [
      `/v1/users/${address}/positions/vaultprotocol/history?format=csv&limit=5`,
      `/v1/users/${address}/activities?format=csv&limit=5`,
    ]) {
      const limited = await raw(url)
      expect(limited.statusCode, url).toBe(400)
      expect(limited.json().error.details[0].field).toBe('limit')
    }
    // A route without a CSV answer refuses the parameter, as any unknown one.
    const other = await raw(`/v1/users/${address}/positions/vaultprotocol?format=csv`)
    expect(other.statusCode).toBe(400)
    expect(other.json().error.details[0].field).toBe('format')
  })

  it('walks a range page by page through the JSON pages’ reader: every batch a page, all of them in order', async () => {
    const module = PROTOCOLS.find((p) => p.name === 'lendingprotocol')!
    const address = await busiest(module.name)
    const { items } = await allPages(
      `/v1/users/${address}/positions/${module.name}/history`,
      (b) => b.data.snapshots,
    )
    // The surface serializers, compiled by Fastify's own compiler through a reply of a separate instance.
    const echo = Fastify()
    let serializers: ReturnType<typeof compileSurfaceSerializers> | undefined
    echo.get('/', async (_request, reply) => {
      serializers = compileSurfaceSerializers(reply)
      return {}
    })
    await echo.inject({ method: 'GET', url: '/' })
    await echo.close()
    if (serializers === undefined) return expect.fail('serializers were not compiled')
    const deps = await dataDeps(world.t.ctx)
    const batches: number[][] = []
    const query = { address, from: null, to: null, before: null }
    for await (const page of historyRecords(module, deps, query, 3, world.t.ctx.caches.answers, serializers))
      batches.push(page.records.map((r) => r.ledger))
    expect(batches.length).toBe(Math.ceil(items.length / 3))
    expect(batches.every((b) => b.length <= 3)).toBe(true)
    expect(batches.flat()).toEqual(items.map((i: Json) => i.ledger))
  })

  it('walks activities page by page from a cursor to the end, as the JSON pages follow next_cursor', async () => {
    const row = await world.t.database.db
      .selectFrom('account_activities')
      .select(['account', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('account')
      .orderBy('n', 'desc')
      .orderBy('account')
      .executeTakeFirstOrThrow()
    const { items } = await allPages(`/v1/users/${row.account}/activities`, (b) => b.data.activities)
    // Pages of its own (their items written by JSON.stringify), so the app's caches are left alone.
    const pages = createActivityPages(createActivitiesReader(world.t.database), {
      items: 1 << 20,
      pages: 1 << 20,
      series: 1 << 20,
    })
    const deps = await dataDeps(world.t.ctx)
    const filter = {
      account: row.account,
      protocol: null,
      type: null,
      from: 0,
      to: last,
      before: null,
      limit: 4,
    }
    const batches: string[][] = []
    for await (const batch of activityRecords(pages, deps, filter, last, (item) => JSON.stringify(item)))
      batches.push(batch.map((a) => `${a.ledger}/${a.tx_hash}/${a.event_index}/${a.protocol}`))
    expect(batches.length).toBe(Math.ceil(items.length / 4))
    expect(batches.every((b) => b.length <= 4)).toBe(true)
    expect(batches.flat()).toEqual(
      items.map((a: Json) => `${a.ledger}/${a.tx_hash}/${a.event_index}/${a.protocol}`),
    )
  })

  it('streams over HTTP: chunked, no content length, the header row first', async () => {
    const address = await busiest('ammprotocol')
    await world.t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = world.t.app.server.address() as AddressInfo
    const { headers, chunks } = await new Promise<{ headers: Record<string, unknown>; chunks: Buffer[] }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: `/v1/users/${address}/positions/ammprotocol/history`,
            headers: { ...apiKey(world.key), accept: 'text/csv' },
          },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () => resolve({ headers: res.headers, chunks }))
            res.on('error', reject)
          },
        )
        req.on('error', reject)
        req.end()
      },
    )
    expect(headers['transfer-encoding']).toBe('chunked')
    expect(headers['content-length']).toBeUndefined()
    const body = Buffer.concat(chunks).toString()
    const injected = await raw(`/v1/users/${address}/positions/ammprotocol/history?format=csv`)
    expect(body).toBe(injected.body)
    expect(body.startsWith('ledger,closed_at,valuation_ledger,address,positions.')).toBe(true)
  })
})

describe('a CSV answer after its first rows: a failure cuts the connection, a client that leaves stops the reads', () => {
  const Row = Type.Object({
    n: Type.Integer(),
    amount: Type.String(),
    note: Type.Union([Type.String(), Type.Null()]),
  })
  const table = csvTable(Type.Object({ rows: Type.Array(Row) }), { expand: 'rows' })
  /** A batch of records, each one row: amounts as decimal strings, every third note null. */
  const batch = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      rows: [{ n: from + i, amount: `${from + i}.0000000`, note: (from + i) % 3 === 0 ? null : 'a,"b"' }],
    }))

  /** A real server answering `/` with `sendCsv` over `batches`; its base URL. */
  const serve = async (batches: () => AsyncGenerator<readonly unknown[]>) => {
    const app = Fastify({ logger: false })
    app.get('/', (_request, reply) =>
      sendCsv(reply, table, 'test.csv', batches(), () => ({ partial_result: false })),
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    return { app, port: (app.server.address() as AddressInfo).port }
  }

  /** A GET read to its end or its failure: what arrived, and how it ended. */
  const fetchRaw = (port: number, leaveAfterFirstChunk = false) =>
    new Promise<{ status: number; body: string; ended: 'end' | 'aborted' | 'left' }>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let body = ''
        res.on('data', (c: Buffer) => {
          body += c.toString()
          if (leaveAfterFirstChunk) {
            req.destroy()
            resolve({ status: res.statusCode!, body, ended: 'left' })
          }
        })
        res.on('end', () => resolve({ status: res.statusCode!, body, ended: 'end' }))
        res.on('aborted', () => resolve({ status: res.statusCode!, body, ended: 'aborted' }))
        res.on('error', () => resolve({ status: res.statusCode!, body, ended: 'aborted' }))
      })
      // The connection cut before the status line arrived.
      req.on('error', () => resolve({ status: 0, body: '', ended: 'aborted' }))
      req.end()
    })

  it('writes the header and the rows, quoted as RFC 4180 says, and parses back', async () => {
    const { app, port } = await serve(async function* () {
      yield batch(0, 5)
      yield batch(5, 5)
    })
    const got = await fetchRaw(port)
    await app.close()
    expect(got).toMatchObject({ status: 200, ended: 'end' })
    const csv = parseCsv(got.body)
    expect(csv.header).toEqual(['rows.n', 'rows.amount', 'rows.note'])
    expect(csv.rows.map((r) => [r['rows.n'], r['rows.amount'], r['rows.note']])).toEqual(
      batch(0, 10).map(({ rows: [r] }) => [String(r!.n), r!.amount, r!.note ?? '']),
    )
    expect(got.body).toContain('"a,""b"""')
  })

  it('a failure while reading a later batch cuts the connection: the client never gets an answer that looks whole', async () => {
    const { app, port } = await serve(async function* () {
      yield batch(0, 3)
      throw new Error('the store went away')
    })
    const firstBatch = [
      'rows.n,rows.amount,rows.note',
      '0,0.0000000,',
      '1,1.0000000,"a,""b"""',
      '2,2.0000000,"a,""b"""',
      '',
    ].join('\r\n')
    const statuses = new Set<number>()
    for (let i = 0; i < 5; i++) {
      const got = await fetchRaw(port)
      // Cut short: never an error status after a 200, never a body that ends as a whole one does.
      expect(got.ended).toBe('aborted')
      // What arrived, if anything, is a beginning of the first batch's rows, nothing else.
      expect(firstBatch.startsWith(got.body), got.body).toBe(true)
      statuses.add(got.status)
    }
    // The cut falls before the status line (0) or after a 200, never on an error status.
    expect([...statuses].every((s) => s === 0 || s === 200)).toBe(true)
    await app.close()
  })

  it('a failure reading the first batch is the JSON error envelope, before any byte of CSV', async () => {
    const { app, port } = await serve(async function* () {
      yield* []
      throw new Error('the store went away')
    })
    const response = await fetch(`http://127.0.0.1:${port}/`)
    await app.close()
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('HEAD: the headers of the CSV answer, and no batch read after the first', async () => {
    let read = 0
    let closed = false
    const { app, port } = await serve(async function* () {
      try {
        for (;;) {
          read++
          yield batch(read * 10, 10)
        }
      } finally {
        closed = true
      }
    })
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' })
    await app.close()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('strata-partial-result')).toBe('false')
    expect(read).toBe(1)
    expect(closed).toBe(true)
  })

  it('a client that leaves: no batch is read after it, and the reader is closed', async () => {
    let read = 0
    let closed: () => void = () => undefined
    const finished = new Promise<void>((resolve) => {
      closed = resolve
    })
    const { app, port } = await serve(async function* () {
      try {
        // Without end: only the client leaving stops it.
        for (;;) {
          read++
          yield batch(read * 1000, 1000)
        }
      } finally {
        closed()
      }
    })
    const got = await fetchRaw(port, true)
    expect(got.ended).toBe('left')
    await finished
    const readWhenClosed = read
    await app.close()
    expect(read).toBe(readWhenClosed)
    // Backpressure held the reads to what the connection took: far fewer than an unbounded loop.
    expect(read).toBeLessThan(1000)
  })
})

describe('Accept: CSV only when preferred to JSON', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['text/csv', true],
    ['text/csv, */*', true],
    ['text/*', true],
    ['text/csv, application/json', false],
    ['application/json, text/csv', false],
    ['text/csv;q=0.9, application/json;q=0.8', true],
    ['application/json;q=0.5, text/csv', true],
    ['text/csv;q=0.2, application/json', false],
    ['text/csv;q=0, */*', false],
    ['TEXT/CSV ; charset=utf-8', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['text/plain', false],
  ])('%j → CSV %s', (accept, csv) => {
    expect(prefersCsv(accept)).toBe(csv)
  })
})
