// The commit watch as an operator sees it: `/v1/health` names an outage that lasts, the
// `strata_commit_watch_live` gauge says whether request state comes from memory, and both clear when
// the watch is back. On PostgreSQL the watch's connection is cut and kept from coming back by the
// fault tests' TCP proxy between the app and the server, refusing new connections while the pool's
// open ones keep answering; SQLite has no watch, and neither the problem nor the gauge.
import { Writable } from 'node:stream'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/api/app.ts'
import { WATCH_OUTAGE_MS } from '../../src/api/routes/health.ts'
import { loadConfig } from '../../src/config.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { createLogger } from '../../src/logger.ts'
import { watchApplicationName } from '../../src/store/commit-watch.ts'
import { createDatabase, type Database } from '../../src/store/db.ts'
import { startTcpProxy, type TcpProxy } from '../faults/support/tcp-proxy.ts'
import { createManualClock } from '../support/app.ts'
import {
  createTestDatabase,
  TEST_DB_KIND,
  TEST_POSTGRES_URL,
  type TestDatabase,
  untilStateLive,
} from '../support/database.ts'

async function appOn(database: Database, testDb: TestDatabase): Promise<{ app: App; ctx: AppContext }> {
  const config = loadConfig({ LOG_LEVEL: 'warn', ...testDb.env }, { database: testDb.config })
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
  const ctx = await createContext(config, createLogger(config.logLevel, sink), {
    clock: createManualClock(Date.now()),
    database,
  })
  return { app: await buildApp(ctx), ctx }
}

const gauge = async (ctx: AppContext) =>
  /^strata_commit_watch_live (\d)$/m.exec(await ctx.metrics.registry.metrics())?.[1] ?? null

describe.skipIf(TEST_DB_KIND !== 'postgres')('a commit watch that stays out (PostgreSQL)', () => {
  let testDb: TestDatabase
  let proxy: TcpProxy
  let database: Database
  let app: App
  let ctx: AppContext
  let direct: Database
  beforeAll(async () => {
    testDb = await createTestDatabase()
    direct = testDb.open()
    const url = new URL(TEST_POSTGRES_URL)
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
    url.hostname = '127.0.0.1'
    url.port = String(proxy.port)
    database = createDatabase({ kind: 'postgres', url: url.toString() }, { schema: testDb.schema! })
    ;({ app, ctx } = await appOn(database, testDb))
  })
  afterAll(async () => {
    await app?.close()
    await ctx?.close()
    await database?.close()
    await direct?.close()
    await proxy?.close()
    await testDb?.drop()
  })

  const health = async () => (await app.inject({ method: 'GET', url: '/v1/health' })).json()

  it('is named by health once out for two seconds, with its cause, and cleared when it listens again', async () => {
    database.committed.listen!()
    await untilStateLive(database)
    expect((await health()).problems).toEqual([])
    expect(await gauge(ctx)).toBe('1')

    // New connections are refused from now on; the watch's own is ended by the server.
    proxy.refuse(true)
    const killed = await sql<{ killed: number }>`
      SELECT count(pg_terminate_backend(pid))::int AS killed FROM pg_stat_activity
       WHERE application_name = ${watchApplicationName(testDb.schema!)}`.execute(direct.db)
    expect(killed.rows[0]!.killed).toBe(1)
    const outage = database.committed.outage!
    for (const until = Date.now() + 10_000; (outage()?.forMs ?? 0) < WATCH_OUTAGE_MS; ) {
      if (Date.now() > until) throw new Error(`the watch was not out for ${WATCH_OUTAGE_MS} ms`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(await gauge(ctx)).toBe('0')
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
    expect(Date.parse(problem.started_at)).toBeLessThanOrEqual(Date.now() - WATCH_OUTAGE_MS)

    // Requests are still answered while it is out (their state read with a statement).
    const signup = await app.inject({ method: 'GET', url: '/v1/org', headers: { 'x-svc-token': 'strata_x' } })
    expect(signup.statusCode).toBe(401)

    proxy.refuse(false)
    await untilStateLive(database)
    expect(outage()).toBeNull()
    expect((await health()).problems).toEqual([])
    expect(await gauge(ctx)).toBe('1')
  })
})

describe.skipIf(TEST_DB_KIND !== 'sqlite')('SQLite has no commit watch', () => {
  let testDb: TestDatabase
  let database: Database
  let app: App
  let ctx: AppContext
  beforeAll(async () => {
    testDb = await createTestDatabase()
    database = testDb.open()
    ;({ app, ctx } = await appOn(database, testDb))
  })
  afterAll(async () => {
    await app?.close()
    await ctx?.close()
    await database?.close()
    await testDb?.drop()
  })

  it('neither reports its outage nor exports its gauge', async () => {
    const body = (await app.inject({ method: 'GET', url: '/v1/health' })).json()
    expect(body.problems).toEqual([])
    expect(await gauge(ctx)).toBeNull()
    expect(await ctx.metrics.registry.metrics()).toContain('strata_database_up')
  })
})
