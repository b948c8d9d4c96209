import { Writable } from 'node:stream'
import { type App, buildApp } from '../../src/api/app.ts'
import type { Clock } from '../../src/clock.ts'
import { type Config, loadConfig, type Plan } from '../../src/config.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { createLogger } from '../../src/logger.ts'
import { changePlan } from '../../src/org/plans.ts'
import type { Database } from '../../src/store/db.ts'
import { createTestDatabase, type TestDatabase } from './database.ts'

export const ADMIN_TOKEN = 'test-admin-token-0123456789'

/** A clock the test moves by hand. */
export interface ManualClock extends Clock {
  advance(ms: number): void
  set(ms: number): void
}

export function createManualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let now = start
  return {
    now: () => now,
    advance: (ms) => {
      now += ms
    },
    set: (ms) => {
      now = ms
    },
  }
}

export interface TestApp {
  app: App
  ctx: AppContext
  database: Database
  testDb: TestDatabase
  clock: ManualClock
  /** Every log line the app wrote, raw. */
  logs: string[]
  close(): Promise<void>
}

/**
 * A fully wired app on its own fresh database, with captured logs and a manual clock. `open`
 * connects the app to that database another way (through a proxy, say); by default `testDb.open()`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  open: (testDb: TestDatabase) => Database = (testDb) => testDb.open(),
): Promise<TestApp> {
  const testDb = await createTestDatabase()
  const database = open(testDb)
  const config = loadConfig(
    // Tests sign up many organizations, and present many refused credentials, from one address; a
    // test of either throttle sets its own.
    {
      STRATA_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      SIGNUP_ATTEMPTS_PER_WINDOW: '100000',
      REFUSED_CREDENTIALS_PER_WINDOW: '100000',
      ...testDb.env,
      ...env,
    },
    { database: testDb.config, ...overrides },
  )
  const logs: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk))
      done()
    },
  })
  const logger = createLogger(config.logLevel, sink)
  const clock = createManualClock(Date.now())
  const ctx = await createContext(config, logger, { clock, database })
  const app = await buildApp(ctx)
  return {
    app,
    ctx,
    database,
    testDb,
    clock,
    logs,
    async close() {
      await app.close()
      await ctx.close()
      await database.close()
      await testDb.drop()
    },
  }
}

/** Records ledger `sequence`, closed `ageS` seconds before the app's clock, as the indexer checkpoint. */
export async function seedCheckpoint(t: TestApp, sequence: number, ageS: number): Promise<void> {
  const closeTime = Math.floor(t.clock.now() / 1000) - ageS
  await t.database.db
    .insertInto('ledgers')
    .values({ sequence, hash: 'ab'.repeat(32), close_time: closeTime })
    .execute()
  await t.database.db
    .insertInto('indexer_state')
    .values({ name: 'ledgers', last_ledger: sequence, first_ledger: sequence, updated_at: t.clock.now() })
    .execute()
  // On PostgreSQL the app learns of a checkpoint by notification: wait until it has arrived.
  await t.database.committed.settle?.()
}

/** What `strata set-plan` does: the operator puts the organization on a plan and allows it. */
export async function grantPlan(t: TestApp, organizationId: string, plan: Plan): Promise<void> {
  await t.database.db
    .transaction()
    .execute((trx) =>
      changePlan(trx, { organizationId, plan, by: { kind: 'admin' }, clientIp: null, now: t.clock.now() }),
    )
  // As `strata set-plan` does: every instance answering from memory has the new plan.
  await t.database.committed.settle?.()
}
