import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../src/devnet/devnet.ts'
import { createIndexer } from '../../src/indexer/index.ts'
import { createLogger } from '../../src/logger.ts'
import { keptAnswerTag, keptTag, textTag } from '../../src/positions/answer-tag.ts'
import { decodeLedgers } from '../devnet/decode-ledgers.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { apiKey, createKey } from '../support/factories.ts'

const START = 3000
/** Where the store starts: the vaults' and pairs' first entries were written before it. */
const LATE = START + 200
const DEVNET = {
  seed: 'http-conventions-partial',
  ledgers: 500,
  accounts: 30,
  activity: 0.03,
  ammActivity: 0.03,
  yieldActivity: 0.03,
  startLedger: START,
}
const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Cache-Control of pinned answers that are partial: the writers say whether an answer is partial
 * (the caching step no longer searches the body for `"partial_result":true`), and a partial answer
 * within the indexed range must still be `no-cache` (a backfill could complete it), while a whole
 * one at the same pin is immutable.
 */
describe('a pinned partial answer is never immutable', () => {
  let devnet: Devnet
  /** A store started after the contracts wrote their first entries: its answers are partial. */
  let late: TestApp
  let lateKey: string
  /** A store of the whole devnet: its answers are whole. */
  let full: TestApp
  let fullKey: string
  /** Accounts holding a balance in some contract, read from the devnet's own ledgers. */
  const holders = new Set<string>()

  beforeAll(async () => {
    devnet = await startDevnet(DEVNET)
    for (const ledger of decodeLedgers(devnet.chain))
      for (const tx of ledger.txs)
        for (const c of tx.changes) {
          const k = c.key as unknown[]
          if (Array.isArray(k) && k[0] === 'Balance' && typeof k[1] === 'string' && k[1].startsWith('G'))
            holders.add(k[1])
        }
    const index = async (t: TestApp, fromLedger?: number) => {
      const indexer = createIndexer({
        database: t.database,
        logger: createLogger('silent'),
        rpcUrl: devnet.url,
        network: devnet.network,
        ...(fromLedger === undefined ? {} : { fromLedger }),
      })
      await indexer.syncTo(devnet.latestLedger())
      return (await createKey(t.app)).key
    }
    late = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' })
    full = await createTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' })
    lateKey = await index(late, LATE)
    fullKey = await index(full)
  }, 300_000)

  afterAll(async () => {
    await late?.close()
    await full?.close()
    await devnet?.close()
  })

  it('answers a partial pinned answer no-cache and a whole one immutable, all protocols and each', async () => {
    const pin = devnet.latestLedger()
    const seen = { partial: 0, whole: 0, sectionPartial: 0 }
    for (const [t, key] of [
      [late, lateKey],
      [full, fullKey],
    ] as const)
      for (const holder of holders) {
        for (const url of [
          `/v1/users/${holder}/positions?as_of_ledger=${pin}`,
          `/v1/users/${holder}/positions/at/${pin}`,
          `/v1/users/${holder}/positions/yieldprotocol?as_of_ledger=${pin}`,
          `/v1/users/${holder}/positions/ammprotocol/at/${pin}`,
        ]) {
          const get = () => t.app.inject({ method: 'GET', url, headers: apiKey(key) })
          const response = await get()
          expect(response.statusCode, url).toBe(200)
          const body = response.json() as {
            data: { protocols?: Record<string, { partial_result: boolean }> }
            meta: { partial_result: boolean; indexed_from_ledger: number; last_indexed_ledger: number }
          }
          // The pin is within the indexed range: only partiality keeps the answer from being immutable.
          expect(body.meta.indexed_from_ledger).toBeLessThanOrEqual(pin)
          expect(body.meta.last_indexed_ledger).toBe(pin)
          const anyPartial = response.body.includes('"partial_result":true')
          expect(response.headers['cache-control'], url).toBe(anyPartial ? 'no-cache' : IMMUTABLE)
          expect(body.meta.partial_result, url).toBe(anyPartial)
          if (anyPartial) seen.partial++
          else seen.whole++
          const sections = Object.values(body.data.protocols ?? {})
          if (sections.some((s) => s.partial_result)) seen.sectionPartial++
          // Asked again: the same tag (the second from what is kept beside the answer's parts).
          const again = await get()
          expect(again.headers.etag, url).toBe(response.headers.etag)
          expect(again.headers['cache-control'], url).toBe(response.headers['cache-control'])
        }
      }
    // Both cases happen, and an all-protocols answer partial through one of its sections.
    expect(seen.partial).toBeGreaterThan(0)
    expect(seen.whole).toBeGreaterThan(0)
    expect(seen.sectionPartial).toBeGreaterThan(0)
  }, 120_000)
})

describe('tags of answers around a kept part', () => {
  it('hashes kind, the part’s tag and the members, and follows the members when they change', () => {
    const part = { text: 'kept rendering' }
    const text = () => part.text
    const partTag = textTag('kept rendering')
    expect(keptTag(part, text)).toBe(partTag)
    const first = keptAnswerTag(part, text, 'a', '0,3|100|null')
    expect(first).toBe(textTag(`a|${partTag}|0,3|100|null`))
    // Asked again with the same members: the same tag.
    expect(keptAnswerTag(part, text, 'a', '0,3|100|null')).toBe(first)
    // Other members, or another kind of answer around the same part: its own tag.
    expect(keptAnswerTag(part, text, 'a', '0,3|101|null')).toBe(textTag(`a|${partTag}|0,3|101|null`))
    expect(keptAnswerTag(part, text, 'p', '0,3|101|null')).toBe(textTag(`p|${partTag}|0,3|101|null`))
    // And back to the first, two answers later: its tag again, not the last one kept.
    expect(keptAnswerTag(part, text, 'a', '0,3|100|null')).toBe(first)
    // Two kept: asked in turn, each keeps its own tag.
    for (const members of ['1|1', '1|2', '1|1', '1|2', '1|3', '1|1'])
      expect(keptAnswerTag(part, text, 'a', members)).toBe(textTag(`a|${partTag}|${members}`))
    // The part's own tag is untouched by the answers' tags kept beside it.
    expect(keptTag(part, () => 'never read')).toBe(partTag)
  })
})
