import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.ts'
import { TEST_DB_KIND } from '../support/database.ts'
import { apiKey, createKey } from '../support/factories.ts'

/** 2026-01-01T00:00:00Z in epoch seconds. */
const T0 = 1_767_225_600

/**
 * Ledgers 100..106 and their close times (seconds after T0): 102 and 103 close in the same
 * second; 106 is written but above the checkpoint (105), so it is not indexed yet.
 */
const LEDGERS: Array<[number, number]> = [
  [100, 0],
  [101, 5],
  [102, 10],
  [103, 10],
  [104, 21],
  [105, 27],
  [106, 33],
]

describe('GET /v1/ledgers/at-time', () => {
  let t: TestApp
  let key: string
  beforeAll(async () => {
    t = await createTestApp()
    key = (await createKey(t.app)).key
  })
  afterAll(async () => t.close())

  const ask = (time: string | null) =>
    t.app.inject({
      method: 'GET',
      url: '/v1/ledgers/at-time',
      query: time === null ? {} : { time },
      headers: apiKey(key),
    })

  it('answers null, not a ledger, while nothing is indexed', async () => {
    const response = await ask('2026-01-01T00:00:00Z')
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({
      data: null,
      meta: {
        requested_at: '2026-01-01T00:00:00.000Z',
        last_indexed_ledger: null,
        indexed_from_ledger: null,
        partial_result: true,
      },
    })
  })

  describe('with ledgers indexed', () => {
    beforeAll(async () => {
      await t.database.db
        .insertInto('ledgers')
        .values(LEDGERS.map(([sequence, at]) => ({ sequence, hash: 'ab'.repeat(32), close_time: T0 + at })))
        .execute()
      await t.database.db
        .insertInto('indexer_state')
        .values({ name: 'ledgers', last_ledger: 105, first_ledger: 100, updated_at: t.clock.now() })
        .execute()
      // Written by hand, as the indexer would: the app has received the checkpoint (PostgreSQL).
      await t.database.committed.settle?.()
    })

    const cases: Array<[string, string, number | null, string | null, boolean]> = [
      // [why, time, ledger, its close time, partial_result]
      ['the first ledger, at its close time', '2026-01-01T00:00:00Z', 100, '2026-01-01T00:00:00.000Z', false],
      ['a close time: that ledger', '2026-01-01T00:00:05Z', 101, '2026-01-01T00:00:05.000Z', false],
      [
        'between two close times: the earlier',
        '2026-01-01T00:00:07Z',
        101,
        '2026-01-01T00:00:05.000Z',
        false,
      ],
      [
        'two ledgers closed that second: the later',
        '2026-01-01T00:00:10Z',
        103,
        '2026-01-01T00:00:10.000Z',
        false,
      ],
      ['just before the next close time', '2026-01-01T00:00:20.999Z', 103, '2026-01-01T00:00:10.000Z', false],
      [
        'a fraction of a second after a close time',
        '2026-01-01T00:00:21.5Z',
        104,
        '2026-01-01T00:00:21.000Z',
        false,
      ],
      [
        'another offset, the same instant',
        '2026-01-01T01:00:07+01:00',
        101,
        '2026-01-01T00:00:05.000Z',
        false,
      ],
      ['the checkpoint, at its close time', '2026-01-01T00:00:27Z', 105, '2026-01-01T00:00:27.000Z', false],
      // 106 closed by then, but it is above the checkpoint: not indexed yet.
      [
        'after the checkpoint: the checkpoint, partial',
        '2026-01-01T00:00:40Z',
        105,
        '2026-01-01T00:00:27.000Z',
        true,
      ],
      [
        'a second after the checkpoint: partial',
        '2026-01-01T00:00:28Z',
        105,
        '2026-01-01T00:00:27.000Z',
        true,
      ],
      ['before the first ledger: unknown', '2025-12-31T23:59:59Z', null, null, true],
    ]
    for (const [why, time, ledger, closedAt, partial] of cases) {
      it(why, async () => {
        const response = await ask(time)
        expect(response.statusCode, response.body).toBe(200)
        const body = response.json()
        expect(body.data).toEqual(ledger === null ? null : { ledger, closed_at: closedAt })
        expect(body.meta).toMatchObject({
          requested_at: new Date(time).toISOString(),
          last_indexed_ledger: 105,
          indexed_from_ledger: 100,
          partial_result: partial,
        })
        expect(Number.isInteger(body.meta.response_time_ms)).toBe(true)
      })
    }
  })

  it.runIf(TEST_DB_KIND === 'sqlite')(
    'finds it by one seek of the close-time index, with no sort',
    async () => {
      const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT sequence, close_time FROM ledgers
      WHERE close_time <= ${T0 + 20} AND sequence <= ${105} ORDER BY close_time DESC, sequence DESC LIMIT 1`.execute(
        t.database.db,
      )
      const details = plan.rows.map((row) => row.detail)
      expect(details.join('\n')).toMatch(
        /SEARCH ledgers USING COVERING INDEX ledgers_close_time \(close_time<\?\)/,
      )
      expect(details.join('\n')).not.toMatch(/TEMP B-TREE/)
    },
  )

  it('refuses a time that is not RFC 3339, or none, with 400 naming the field', async () => {
    for (const time of [
      'yesterday',
      '2026-01-01',
      '2026-01-01T00:00:00',
      '1767225600',
      '2026-13-01T00:00:00Z',
      null,
    ]) {
      const response = await ask(time)
      expect(response.statusCode, `${time}: ${response.body}`).toBe(400)
      expect(response.json().error.code).toBe('invalid_request')
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toEqual(['time'])
    }
  })

  it('takes an API key, and counts against the quota like every data request', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/v1/ledgers/at-time?time=2026-01-01T00:00:00Z' })
    expect(none.statusCode).toBe(401)
    const response = await ask('2026-01-01T00:00:00Z')
    expect(response.headers.ratelimit).toMatch(/^"org";r=\d+;t=\d+$/)
  })
})
