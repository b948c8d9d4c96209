import { Readable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerTag, compressAnswer, negotiateEncoding } from '../../src/api/http-conventions.ts'
import { offerBodyTag, takeBodyTag } from '../../src/positions/answer-tag.ts'
import { buildReferenceModel } from '../positions/reference-model.ts'
import { createTestApp, seedCheckpoint, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'

const START = 4000
const DEVNET = {
  seed: 'http-conventions',
  ledgers: 400,
  accounts: 30,
  activity: 0.05,
  lendingActivity: 0,
  ammActivity: 0,
  yieldActivity: 0,
  startLedger: START,
}
/** Where the first sync stops; the rest of the devnet is indexed by a later test. */
const FIRST_CHECKPOINT = START + 200
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** A JSON answer without the members that only say when it was served. */
function stable(body: string): unknown {
  const parsed = JSON.parse(body) as { meta: Record<string, unknown> }
  delete parsed.meta.response_time_ms
  delete parsed.meta.data_staleness_seconds
  delete parsed.meta.last_indexed_ledger
  return parsed
}

describe('caching and compression of data answers', () => {
  let world: IndexedDevnet
  /** An account with a vault snapshot at or below the first checkpoint and another after it. */
  let address: string
  /** The ledger of its last snapshot at or below the first checkpoint. */
  let pinned: number
  /** Another account with vaults. */
  let other: string

  const get = (url: string, headers: Record<string, string> = {}) =>
    world.t.app.inject({ method: 'GET', url, headers: { ...apiKey(world.key), ...headers } })

  beforeAll(async () => {
    world = await startIndexedDevnet(DEVNET, { syncTo: FIRST_CHECKPOINT })
    // Chosen from the devnet's own chain (the reference model), not from the API under test: an
    // account whose vaults changed after a ledger within the first sync and again after it.
    const model = buildReferenceModel(world.devnet.chain)
    const chosen = [...model.snapshots.entries()].find(
      ([, snapshots]) =>
        snapshots.some((s) => s.ledger > START + 20 && s.ledger <= FIRST_CHECKPOINT) &&
        snapshots.some((s) => s.ledger > FIRST_CHECKPOINT),
    )
    expect(chosen, 'an account active in both syncs').toBeDefined()
    address = chosen![0]
    pinned = chosen![1].filter((s) => s.ledger <= FIRST_CHECKPOINT).at(-1)!.ledger
    other = [...model.snapshots.keys()].find((a) => a !== address)!
  }, 180_000)

  afterAll(async () => {
    await world?.close()
  })

  it('answers 304 with no body and the same ETag to a repeated pinned request, 200 when If-None-Match differs', async () => {
    const url = `/v1/users/${address}/positions/vaultprotocol?as_of_ledger=${pinned}`
    const first = await get(url)
    expect(first.statusCode).toBe(200)
    const tag = first.headers.etag as string
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/)
    expect(first.headers['cache-control']).toBe(IMMUTABLE)
    expect(String(first.headers.vary)).toContain('x-svc-token')

    const again = await get(url, { 'if-none-match': tag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers.etag).toBe(tag)
    expect(again.headers['cache-control']).toBe(IMMUTABLE)
    // The 304 went through the rate limit like any answer: it spent one request of the quota.
    const remaining = (headers: Record<string, unknown>) =>
      Number(/r=([0-9]+)/.exec(String(headers.ratelimit))?.[1])
    expect(remaining(again.headers)).toBe(remaining(first.headers) - 1)

    // A list of tags, one of them the answer's, strong or weak: still 304.
    const listed = await get(url, { 'if-none-match': `"other", ${tag.slice(2)}` })
    expect(listed.statusCode).toBe(304)

    const other = await get(url, { 'if-none-match': 'W/"something-else"' })
    expect(other.statusCode).toBe(200)
    expect(stable(other.body)).toEqual(stable(first.body))
    expect(other.headers.etag).toBe(tag)
  })

  it('is immutable only for a pin within the indexed range; latest, no pin and a pin above the checkpoint are no-cache', async () => {
    const base = `/v1/users/${address}/positions/vaultprotocol`
    const cacheControl = async (url: string) => {
      const response = await get(url)
      expect(response.statusCode, url).toBe(200)
      expect(response.headers.etag, url).toBeDefined()
      return response.headers['cache-control']
    }
    expect(await cacheControl(`${base}?as_of_ledger=${FIRST_CHECKPOINT}`)).toBe(IMMUTABLE)
    expect(await cacheControl(`${base}/at/${pinned}`)).toBe(IMMUTABLE)
    expect(await cacheControl(`/v1/users/${address}/positions?as_of_ledger=${pinned}`)).toBe(IMMUTABLE)
    expect(await cacheControl(`${base}?as_of_ledger=${FIRST_CHECKPOINT + 1}`)).toBe('no-cache')
    expect(await cacheControl(`${base}/at/latest`)).toBe('no-cache')
    expect(await cacheControl(base)).toBe('no-cache')
    // Below the first indexed ledger: a backfill could change the answer.
    const below = await get(`${base}?as_of_ledger=${START - 10}`)
    expect(JSON.parse(below.body).meta.indexed_from_ledger).toBeGreaterThan(START - 10)
    expect(below.headers['cache-control']).toBe('no-cache')
    // History is no-cache: a page ends wherever the index is.
    expect(await cacheControl(`${base}/history?to_ledger=${pinned}`)).toBe('no-cache')
  })

  it('compresses with gzip when asked, to the same answer, and not when not asked', async () => {
    const url = `/v1/users/${address}/positions?as_of_ledger=${pinned}`
    const plain = await get(url)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    const zipped = await get(url, { 'accept-encoding': 'gzip' })
    expect(zipped.statusCode).toBe(200)
    expect(zipped.headers['content-encoding']).toBe('gzip')
    expect(String(zipped.headers.vary)).toContain('accept-encoding')
    const body = gunzipSync(zipped.rawPayload).toString('utf8')
    expect(stable(body)).toEqual(stable(plain.body))
    // One weak ETag for both forms: a revalidation with either gets 304.
    expect(zipped.headers.etag).toBe(plain.headers.etag)
    const revalidated = await get(url, {
      'accept-encoding': 'gzip',
      'if-none-match': plain.headers.etag as string,
    })
    expect(revalidated.statusCode).toBe(304)
    expect(revalidated.rawPayload.length).toBe(0)
    // Identity refused by the client's own preference: deflate is the other encoding offered.
    const deflated = await get(url, { 'accept-encoding': 'deflate' })
    expect(deflated.headers['content-encoding']).toBe('deflate')
  })

  it('changes the ETag of the latest answer when the account changes, and keeps the pinned one while only the index moves', async () => {
    const latestUrl = `/v1/users/${address}/positions/vaultprotocol`
    const pinnedUrl = `${latestUrl}?as_of_ledger=${pinned}`
    const latestBefore = await get(latestUrl)
    const pinnedBefore = await get(pinnedUrl)
    // Lists written from kept parts (a history page from kept surfaces, an activity page's kept
    // items), each asked twice: the second is a 304.
    const lists = [
      `/v1/users/${address}/positions/vaultprotocol/history`,
      `/v1/users/${address}/activities`,
      `/v1/users/${address}/positions`,
    ]
    const listsBefore = new Map<string, { tag: string; body: string }>()
    for (const url of lists) {
      const first = await get(url)
      expect(first.statusCode, url).toBe(200)
      const tag = first.headers.etag as string
      expect((await get(url, { 'if-none-match': tag })).statusCode, url).toBe(304)
      listsBefore.set(url, { tag, body: first.body })
    }
    await world.indexer.syncTo(world.devnet.latestLedger())
    // The account acted after the first checkpoint: each list says more now, under another tag.
    for (const url of lists) {
      const before = listsBefore.get(url)!
      const after = await get(url, { 'if-none-match': before.tag })
      expect(after.statusCode, url).toBe(200)
      expect(after.headers.etag, url).not.toBe(before.tag)
      expect(stable(after.body), url).not.toEqual(stable(before.body))
    }

    const latestAfter = await get(latestUrl, { 'if-none-match': latestBefore.headers.etag as string })
    expect(latestAfter.statusCode).toBe(200)
    expect(JSON.parse(latestAfter.body).meta.last_indexed_ledger).toBe(world.devnet.latestLedger())
    // The account's vaults changed after the first checkpoint (see beforeAll): another answer.
    expect(latestAfter.headers.etag).not.toBe(latestBefore.headers.etag)
    expect(stable(latestAfter.body)).not.toEqual(stable(latestBefore.body))
    // The pinned answer's checkpoint and staleness moved; what it says did not: still 304.
    const pinnedAfter = await get(pinnedUrl, { 'if-none-match': pinnedBefore.headers.etag as string })
    expect(pinnedAfter.statusCode).toBe(304)
    // Another account at the same pin is another answer: another ETag.
    const another = await get(`/v1/users/${other}/positions/vaultprotocol?as_of_ledger=${pinned}`)
    expect(another.statusCode).toBe(200)
    expect(another.headers.etag).not.toBe(pinnedBefore.headers.etag)
  })
})

describe('compression', () => {
  it('negotiates gzip or deflate by weight, gzip on a tie, nothing when neither is acceptable', () => {
    expect(negotiateEncoding(undefined)).toBeNull()
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('gzip')
    expect(negotiateEncoding('deflate')).toBe('deflate')
    expect(negotiateEncoding('gzip;q=0.5, deflate;q=0.8')).toBe('deflate')
    expect(negotiateEncoding('gzip;q=0, deflate')).toBe('deflate')
    expect(negotiateEncoding('x-gzip')).toBe('gzip')
    expect(negotiateEncoding('*')).toBe('gzip')
    expect(negotiateEncoding('*;q=0')).toBeNull()
    expect(negotiateEncoding('br, zstd')).toBeNull()
    expect(negotiateEncoding('identity')).toBeNull()
    expect(negotiateEncoding('GZIP ; Q=1')).toBe('gzip')
    expect(negotiateEncoding('gzip;q=nonsense')).toBeNull()
  })

  it('compresses a streamed answer as it flows, and leaves small or unasked answers alone', async () => {
    const rows = Array.from(
      { length: 2000 },
      (_, i) => `${i},GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7,${i * 7}\n`,
    )
    const app = Fastify()
    app.addHook('onSend', (request, reply, payload, done) =>
      done(null, compressAnswer(request, reply, payload)),
    )
    app.get('/csv', (_request, reply) => reply.type('text/csv; charset=utf-8').send(Readable.from(rows)))
    app.get('/small', (_request, reply) => reply.type('application/json').send('{"ok":true}'))
    try {
      const zipped = await app.inject({ method: 'GET', url: '/csv', headers: { 'accept-encoding': 'gzip' } })
      expect(zipped.headers['content-encoding']).toBe('gzip')
      expect(zipped.headers['content-length']).toBeUndefined()
      expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(rows.join(''))
      const plain = await app.inject({ method: 'GET', url: '/csv' })
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.body).toBe(rows.join(''))
      const small = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'gzip' } })
      expect(small.headers['content-encoding']).toBeUndefined()
      expect(small.headers.vary).toBeUndefined()
      const refused = await app.inject({
        method: 'GET',
        url: '/csv',
        headers: { 'accept-encoding': 'gzip', 'x-no-compression': '1' },
      })
      expect(refused.headers['content-encoding']).toBeUndefined()
    } finally {
      await app.close()
    }
  })
})

describe('tags of answers written from kept parts', () => {
  it('gives an offered tag only to the very body it was offered for', () => {
    offerBodyTag('{"a":1}', 'tag-a')
    expect(takeBodyTag('{"a":2}')).toBeNull()
    expect(takeBodyTag('{"a":1}')).toBe('tag-a')
    expect(takeBodyTag('{"a":1}')).toBeNull()
  })

  it('tags a body nobody offered a tag for by its content without the volatile members', () => {
    const body = (ms: number, staleness: number, last: number, data: string) =>
      `{"data":${data},"meta":{"as_of_ledger":10,"data_staleness_seconds":${staleness},"last_indexed_ledger":${last},"response_time_ms":${ms}}}`
    expect(answerTag(body(1, 5, 100, '[1]'))).toBe(answerTag(body(7, 60, 130, '[1]')))
    expect(answerTag(body(1, 5, 100, '[1]'))).not.toBe(answerTag(body(1, 5, 100, '[2]')))
    expect(answerTag(body(1, 5, 100, '[1]'))).not.toBe(
      answerTag(body(1, 5, 100, '[1]').replace('"as_of_ledger":10', '"as_of_ledger":11')),
    )
  })
})

const ORIGIN = 'https://app.example.com'

describe('CORS for the configured origins', () => {
  let t: TestApp
  let key: string
  beforeAll(async () => {
    t = await createTestApp({ STRATA_CORS_ORIGINS: `${ORIGIN}, http://localhost:5173` })
    await seedCheckpoint(t, 500, 10)
    key = (await createKey(t.app)).key
  })
  afterAll(async () => t.close())

  const preflight = (origin: string, url = '/v1/protocols') =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-svc-token, if-none-match',
      },
    })

  it('allows a preflight from a configured origin, with the headers the API reads and a max-age', async () => {
    const response = await preflight(
      ORIGIN,
      '/v1/users/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7/positions',
    )
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN)
    const allowed = String(response.headers['access-control-allow-headers']).split(/,\s*/)
    for (const name of [
      'x-svc-token',
      'authorization',
      'content-type',
      'idempotency-key',
      'if-none-match',
      'x-request-id',
    ])
      expect(allowed).toContain(name)
    expect(String(response.headers['access-control-allow-methods'])).toContain('GET')
    expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0)
    expect(String(response.headers.vary)).toContain('Origin')
  })

  it('refuses a preflight from another origin: no access-control-allow-origin', async () => {
    const response = await preflight('https://evil.example.com')
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
    // Near misses of a configured origin are other origins.
    for (const near of [`${ORIGIN}.evil.com`, 'http://app.example.com', `${ORIGIN}:8443`]) {
      expect((await preflight(near)).headers['access-control-allow-origin'], near).toBeUndefined()
    }
  })

  it('lets a configured origin read a real answer and a refusal, with the headers it needs exposed', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/v1/protocols',
      headers: { ...apiKey(key), origin: ORIGIN },
    })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN)
    const exposed = String(ok.headers['access-control-expose-headers']).split(/,\s*/)
    for (const name of ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'etag'])
      expect(exposed).toContain(name)
    const refused = await t.app.inject({ method: 'GET', url: '/v1/protocols', headers: { origin: ORIGIN } })
    expect(refused.statusCode).toBe(401)
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN)
    const stranger = await t.app.inject({
      method: 'GET',
      url: '/v1/protocols',
      headers: { ...apiKey(key), origin: 'https://evil.example.com' },
    })
    expect(stranger.statusCode).toBe(200)
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('sends no CORS header and answers OPTIONS 405 when STRATA_CORS_ORIGINS is unset', async () => {
    const plain = await createTestApp()
    try {
      const options = await plain.app.inject({
        method: 'OPTIONS',
        url: '/v1/protocols',
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
      })
      expect(options.statusCode).toBe(405)
      expect(options.json().error.code).toBe('method_not_allowed')
      const get = await plain.app.inject({ method: 'GET', url: '/v1/health', headers: { origin: ORIGIN } })
      expect(Object.keys(get.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    } finally {
      await plain.close()
    }
  })
})

describe('security headers', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ STRATA_CORS_ORIGINS: ORIGIN })
  })
  afterAll(async () => t.close())

  it('gives an HTML page its own browsing context, same-origin loading, no framing and a CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/v1/docs' })
    expect(page.statusCode).toBe(200)
    expect(page.headers).toMatchObject({
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    })
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'")
  })

  it('leaves JSON readable cross-origin: no cross-origin-resource-policy on API answers', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/v1/health', headers: { origin: ORIGIN } })
    expect(health.headers['cross-origin-resource-policy']).toBeUndefined()
    expect(health.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(health.headers['x-content-type-options']).toBe('nosniff')
  })

  it('compresses the reference page when asked', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/v1/docs',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(page.headers['content-encoding']).toBe('gzip')
    const plain = await t.app.inject({ method: 'GET', url: '/v1/docs' })
    expect(gunzipSync(page.rawPayload).toString('utf8')).toBe(plain.body)
    // Asked again, the page (kept rendered) is sent from its kept compressed form: the same bytes.
    const again = await t.app.inject({
      method: 'GET',
      url: '/v1/docs',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(again.rawPayload.equals(page.rawPayload)).toBe(true)
    expect(gunzipSync(again.rawPayload).toString('utf8')).toBe(plain.body)
  })
})
