import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHealthBoard, verdict } from '../../src/health.ts'
import { createTestApp, seedCheckpoint, type TestApp } from '../support/app.ts'

describe('GET /v1/health decides from one board', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ STRATA_MAX_INDEXER_LAG_S: '60' })
  })
  afterAll(async () => t.close())

  const health = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/health' })
    return { status: response.statusCode, body: response.json() }
  }

  it('is ok with no problems, and degraded with indexer_behind once the checkpoint is older than the lag', async () => {
    const empty = await health()
    expect(empty).toMatchObject({ status: 200, body: { status: 'ok', problems: [] } })
    expect(empty.body.indexer).toMatchObject({ state: null, max_lag_seconds: 60 })

    await seedCheckpoint(t, 500, 61)
    const behind = await health()
    expect(behind.status).toBe(200)
    expect(behind.body.status).toBe('degraded')
    expect(behind.body.indexer.data_staleness_seconds).toBe(61)
    expect(behind.body.problems).toEqual([
      {
        component: 'indexer',
        code: 'indexer_behind',
        message: 'the last indexed ledger closed 61 s ago, more than STRATA_MAX_INDEXER_LAG_S (60 s)',
        // The ledger closed 61 s before the clock; it became too old 60 s after it closed.
        started_at: new Date(Math.floor(t.clock.now() / 1000) * 1000 - 1000).toISOString(),
      },
    ])
  })

  it('lists what the parts report, with the indexer state, and clears them when they recover', async () => {
    t.ctx.health.setIndexerState('retrying')
    t.ctx.health.report('store_writes', 'disk_full', 'a write failed: database or disk is full')
    const reported = await health()
    expect(reported.status).toBe(200)
    expect(reported.body.indexer.state).toBe('retrying')
    expect(reported.body.problems.map((p: { code: string }) => p.code)).toEqual([
      'disk_full',
      'indexer_behind',
    ])
    t.ctx.health.clear('store_writes')
    t.ctx.health.setIndexerState('running')
    const cleared = await health()
    expect(cleared.body.problems.map((p: { code: string }) => p.code)).toEqual(['indexer_behind'])
    expect(cleared.body.indexer.state).toBe('running')
  })
})

describe('GET /v1/health/ready and /v1/health/live', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ STRATA_READY_MAX_LAG_S: '120' })
  })
  afterAll(async () => t.close())

  const probe = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url })
    return { status: response.statusCode, body: response.json(), headers: response.headers }
  }

  it('is live whatever the index says, and not ready before anything is indexed', async () => {
    const live = await probe('/v1/health/live')
    expect(live).toMatchObject({ status: 200, body: { status: 'live' } })
    expect(live.headers['cache-control']).toBe('no-store')
    const empty = await probe('/v1/health/ready')
    expect(empty.status).toBe(503)
    expect(empty.body).toMatchObject({ status: 'not_ready', last_indexed_ledger: null, max_lag_seconds: 120 })
    expect(empty.body.reasons.map((r: { code: string }) => r.code)).toEqual(['nothing_indexed'])
  })

  it('is 503 indexer_behind while the last indexed ledger is older than the lag, 200 once it is current', async () => {
    // The checkpoint's ledger closed 121 s before the clock: one second past the lag.
    await seedCheckpoint(t, 700, 121)
    const behind = await probe('/v1/health/ready')
    expect(behind.status).toBe(503)
    expect(behind.body).toMatchObject({
      status: 'not_ready',
      last_indexed_ledger: 700,
      data_staleness_seconds: 121,
      reasons: [
        {
          code: 'indexer_behind',
          message: 'the last indexed ledger closed 121 s ago, more than STRATA_READY_MAX_LAG_S (120 s)',
        },
      ],
    })
    // Liveness does not follow readiness: restarting would not index faster.
    expect((await probe('/v1/health/live')).status).toBe(200)

    // The indexer catches up: a newer ledger, closed 5 s ago, becomes the checkpoint.
    const closeTime = Math.floor(t.clock.now() / 1000) - 5
    await t.database.db
      .insertInto('ledgers')
      .values({ sequence: 760, hash: 'cd'.repeat(32), close_time: closeTime })
      .execute()
    await t.database.db
      .updateTable('indexer_state')
      .set({ last_ledger: 760 })
      .where('name', '=', 'ledgers')
      .execute()
    const ready = await probe('/v1/health/ready')
    expect(ready).toMatchObject({
      status: 200,
      body: { status: 'ready', last_indexed_ledger: 760, data_staleness_seconds: 5, reasons: [] },
    })

    // Time passes with no new ledger: behind again, by the clock alone.
    t.clock.advance(116_000)
    expect((await probe('/v1/health/ready')).status).toBe(503)
  })
})

describe('the health board', () => {
  it('keeps when a problem began while its code stays, and restarts it for another code', () => {
    let now = 1_000
    const board = createHealthBoard(() => now)
    board.report('rate_limiter', 'rate_limiter_local', 'Redis timed out')
    now = 5_000
    board.report('rate_limiter', 'rate_limiter_local', 'Redis refused the connection')
    expect(board.problems()).toEqual([
      {
        component: 'rate_limiter',
        code: 'rate_limiter_local',
        message: 'Redis refused the connection',
        sinceMs: 1_000,
      },
    ])
    board.report('rate_limiter', 'other', 'x')
    expect(board.problems()[0]?.sinceMs).toBe(5_000)
    // Clearing another code leaves the problem; clearing its own removes it.
    board.clear('rate_limiter', 'rate_limiter_local')
    expect(board.problems()).toHaveLength(1)
    board.clear('rate_limiter', 'other')
    expect(board.problems()).toEqual([])
  })

  it('is unavailable only when the database is, degraded for anything else', () => {
    const problem = (component: 'database' | 'indexer') => ({
      component,
      code: 'x',
      message: 'x',
      sinceMs: 0,
    })
    expect(verdict([])).toBe('ok')
    expect(verdict([problem('indexer')])).toBe('degraded')
    expect(verdict([problem('indexer'), problem('database')])).toBe('unavailable')
  })
})
