// The commit watch as an operator sees it: `/v1/health` names an outage that lasts, the
// `strata_commit_watch_live` gauge says whether request state comes from memory, and both clear when
// the watch is back. On PostgreSQL the watch's connection is cut and kept from coming back by the
// fault tests' TCP proxy between the app and the server, refusing new connections while the pool's
// open ones keep answering; SQLite has no watch, and neither the problem nor the gauge.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WATCH_OUTAGE_MS } from '../../src/api/routes/health.ts'
import type { AppContext } from '../../src/context.ts'
import { watchApplicationName } from '../../src/store/commit-watch.ts'
import { createDatabase, type Database } from '../../src/store/db.ts'
import { startTcpProxy, type TcpProxy } from '../faults/support/tcp-proxy.ts'
import { createTestApp, type TestApp } from '../support/app.ts'
import { TEST_DB_KIND, TEST_POSTGRES_URL, untilStateLive } from '../support/database.ts'
import { apiKey, signUp } from '../support/factories.ts'

const gauge = async (ctx: AppContext) =>
  /^strata_commit_watch_live (\d)$/m.exec(await ctx.metrics.registry.metrics())?.[1] ?? null

describe.skipIf(TEST_DB_KIND !== 'postgres')('a commit watch that stays out (PostgreSQL)', () => {
  let proxy: TcpProxy
  let t: TestApp
  let direct: Database
  beforeAll(async () => {
    const url = new URL(TEST_POSTGRES_URL)
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
    url.hostname = '127.0.0.1'
    url.port = String(proxy.port)
    // The app reaches its database through the proxy; the test kills backends straight.
    t = await createTestApp({}, {}, (testDb) =>
      createDatabase({ kind: 'postgres', url: url.toString() }, { schema: testDb.schema! }),
    )
    direct = t.testDb.open()
  })
  afterAll(async () => {
    await direct?.close()
    await t?.close()
    await proxy?.close()
  })

  const health = async () => (await t.app.inject({ method: 'GET', url: '/v1/health' })).json()

  it('is named by health once out for two seconds, with its cause, and cleared when it listens again', async () => {
    t.database.committed.listen!()
    await untilStateLive(t.database)
    const user = await signUp(t.app)
    expect((await health()).problems).toEqual([])
    expect(await gauge(t.ctx)).toBe('1')

    // New connections are refused from now on; the watch's own is ended by the server.
    proxy.refuse(true)
    const killed = await sql<{ killed: number }>`
      SELECT count(pg_terminate_backend(pid))::int AS killed FROM pg_stat_activity
       WHERE application_name = ${watchApplicationName(t.testDb.schema!)}`.execute(direct.db)
    expect(killed.rows[0]!.killed).toBe(1)
    const outage = t.database.committed.outage!
    for (const until = Date.now() + 10_000; (outage()?.forMs ?? 0) < WATCH_OUTAGE_MS; ) {
      if (Date.now() > until) throw new Error(`the watch was not out for ${WATCH_OUTAGE_MS} ms`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(await gauge(t.ctx)).toBe('0')
    const down = await health()
    // Degraded, not unavailable: the pool's open connection still reads the database.
    expect(down.status).toBe('degraded')
    expect(down.database).toBe('ok')
    expect(down.problems).toHaveLength(1)
    const [problem] = down.problems
    expect(problem).toMatchObject({ component: 'commit_watch', code: 'commit_watch_down' })
    // The cause is the driver's: the server's termination, then each refused reconnection.
    expect(problem.message).toMatch(
      /^the notification connection to PostgreSQL has been out for \d+ s \((terminating connection due to administrator command|Connection terminated unexpectedly|.*ECONNRESET.*)\): every request reads its state with a statement/,
    )
    const outFor = Number(/out for (\d+) s/.exec(problem.message)![1])
    expect(outFor).toBeGreaterThanOrEqual(WATCH_OUTAGE_MS / 1000)
    // Dated by the app's clock, as long before its now as the watch has been out.
    const startedBefore = t.clock.now() - Date.parse(problem.started_at)
    expect(startedBefore).toBeGreaterThanOrEqual(WATCH_OUTAGE_MS)
    expect(startedBefore).toBeLessThan(WATCH_OUTAGE_MS + 10_000)

    // A data request is still answered while it is out: its key and checkpoint read with a statement.
    const answered = await t.app.inject({
      method: 'GET',
      url: '/v1/protocols',
      headers: apiKey(user.api_key.key),
    })
    expect(answered.statusCode).toBe(200)

    proxy.refuse(false)
    await untilStateLive(t.database)
    expect(outage()).toBeNull()
    expect((await health()).problems).toEqual([])
    expect(await gauge(t.ctx)).toBe('1')
  })
})

describe.skipIf(TEST_DB_KIND !== 'sqlite')('SQLite has no commit watch', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t?.close())

  it('neither reports its outage nor exports its gauge', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/v1/health' })).json()
    expect(body.problems).toEqual([])
    expect(await gauge(t.ctx)).toBeNull()
    expect(await t.ctx.metrics.registry.metrics()).toContain('strata_database_up')
  })
})
