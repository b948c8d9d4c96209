import { sql } from 'kysely'
import Value from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/logger.ts'
import { PASS_THROUGH } from '../../src/positions/answer-cache.ts'
import { createAnswerer, judgeGroups, type LendingAnswerData } from '../../src/push/health-answers.ts'
import {
  crossingsOf,
  HEALTH_CURSOR,
  HEALTH_FACTOR_BELOW,
  type HealthCrossingsDeps,
  HealthFactorCrossingEvent,
  judgeNextRange,
  parseFixed7,
  RANGE,
} from '../../src/push/health-crossings.ts'
import { createPayloadRenderer } from '../../src/push/webhook-payloads.ts'
import type { Database } from '../../src/store/db.ts'
import { createPositionsReader } from '../../src/store/positions-read.ts'
import { createWebhook } from '../../src/store/webhooks.ts'
import { type IndexedDevnet, startIndexedDevnet } from '../support/indexed-devnet.ts'

// Blend pools only, lively enough that a borrower's health factor moves with its positions, the
// pools' rates and prices, and that one account repays its whole debt.
const START = 5000
const DEVNET = {
  seed: 'health-crossings',
  ledgers: 300,
  accounts: 20,
  activity: 0.05,
  lendingActivity: 0.08,
  ammActivity: 0,
  yieldActivity: 0,
  startLedger: START,
}

/** A pool group's health factor as the test judges it: a value, null (no debt), or unknown. */
type Health = string | null | 'unknown'

/** Each account's `/at/{ledger}` lending answers, ledger by ledger: pool → health factor. */
type Series = Map<string, Array<{ ledger: number; pools: Map<string, Health> }>>

interface Expected {
  webhook: string
  ledger: number
  address: string
  pool: string
  direction: 'below' | 'above'
  health_factor: string | null
  previous_health_factor: string | null
}

/** "1.0254569" (exactly 7 decimals, as answers write it) or "1.1" as an integer of 1e-7 units. */
function units(text: string): bigint {
  const [whole, fraction = ''] = text.split('.')
  return BigInt(whole!) * 10_000_000n + BigInt(fraction.padEnd(7, '0'))
}

/** The crossings of `threshold` along one account's answers, the first answer being the base. */
function expectedCrossings(
  webhook: string,
  address: string,
  answers: Array<{ ledger: number; pools: Map<string, Health> }>,
  threshold: bigint,
): Expected[] {
  const isBelow = (h: string | null) => h !== null && units(h) < threshold
  const last = new Map(answers[0]!.pools)
  const out: Expected[] = []
  for (const { ledger, pools } of answers.slice(1)) {
    for (const pool of [...new Set([...last.keys(), ...pools.keys()])].sort()) {
      const now = pools.has(pool) ? pools.get(pool)! : null
      if (now === 'unknown') continue
      const before = last.has(pool) ? last.get(pool)! : null
      last.set(pool, now)
      if (before === 'unknown' || isBelow(before) === isBelow(now)) continue
      out.push({
        webhook,
        ledger,
        address,
        pool,
        direction: isBelow(now) ? 'below' : 'above',
        health_factor: now,
        previous_health_factor: before,
      })
    }
  }
  return out
}

const order = (a: Expected, b: Expected) =>
  a.ledger - b.ledger ||
  a.address.localeCompare(b.address) ||
  a.pool.localeCompare(b.pool) ||
  a.webhook.localeCompare(b.webhook)

describe('health_factor.below', () => {
  let w: IndexedDevnet
  let last: number
  let accounts: string[]
  let borrowers: string[]
  const series: Series = new Map()
  const closeTimes = new Map<number, number>()

  beforeAll(async () => {
    w = await startIndexedDevnet(DEVNET)
    last = w.devnet.latestLedger()
    const db = w.t.database.db
    accounts = (
      await db
        .selectFrom('snapshots')
        .select('address')
        .distinct()
        .where('protocol', '=', 'lendingprotocol')
        .execute()
    )
      .map((r) => r.address)
      .sort()
    for (const row of await db.selectFrom('ledgers').select(['sequence', 'close_time']).execute())
      closeTimes.set(Number(row.sequence), Number(row.close_time))
    // Every account's answer at every ledger, through the API: what the evaluator must agree with.
    for (const address of accounts) {
      const answers: Array<{ ledger: number; pools: Map<string, Health> }> = []
      for (let ledger = START; ledger <= last; ledger++) {
        const { status, body } = await w.get(`/v1/users/${address}/positions/lendingprotocol/at/${ledger}`)
        expect(status).toBe(200)
        const borrowing = new Set(
          body.data.positions
            .filter((p: { position_type: string }) => p.position_type === 'borrow')
            .map((p: { contract_address: string }) => p.contract_address),
        )
        const pools = new Map<string, Health>()
        for (const g of body.data.groups) {
          const unknown =
            g.health_factor === null && g.usd_unavailable_reason !== null && borrowing.has(g.contract_address)
          pools.set(g.contract_address, unknown ? 'unknown' : g.health_factor)
        }
        answers.push({ ledger, pools })
      }
      series.set(address, answers)
    }
    borrowers = accounts.filter((a) =>
      series.get(a)!.some((x) => [...x.pools.values()].some((h) => h !== null && h !== 'unknown')),
    )
    await db
      .insertInto('organizations')
      .values({
        id: 'org_health',
        slug: 'org-health',
        name: 'Health',
        plan: 'pro',
        billing_email: null,
        created_at: 1,
        created_by: 'admin',
        max_plan: 'pro',
      })
      .execute()
  }, 240_000)

  afterAll(async () => {
    await w?.close()
  })

  /** The threshold (from the values seen) that the given accounts cross most often. */
  function busiestThreshold(of: readonly string[], skip: readonly string[] = []): string {
    const values = new Set<string>()
    for (const a of of)
      for (const x of series.get(a)!)
        for (const h of x.pools.values()) if (h !== null && h !== 'unknown') values.add(h)
    let best: { text: string; count: number } | null = null
    for (const text of [...values].sort()) {
      if (skip.includes(text)) continue
      const count = of.flatMap((a) => expectedCrossings('', a, series.get(a)!, units(text))).length
      if (best === null || count > best.count) best = { text, count }
    }
    return best!.text
  }

  function expected(
    webhook: string,
    watched: readonly string[],
    threshold: string,
    from = START,
  ): Expected[] {
    return watched
      .flatMap((a) =>
        expectedCrossings(
          webhook,
          a,
          series.get(a)!.filter((x) => x.ledger >= from),
          units(threshold),
        ),
      )
      .sort(order)
  }

  async function addWebhook(
    db: Database['db'],
    id: string,
    threshold: string,
    fields: { addresses?: string[] | null; protocols?: string[]; status?: 'enabled' | 'disabled' } = {},
  ) {
    await createWebhook(db, {
      id,
      organizationId: 'org_health',
      url: 'https://hooks.example.com/strata',
      description: null,
      events: ['position.changed', HEALTH_FACTOR_BELOW],
      addresses: fields.addresses === null ? null : (fields.addresses ?? borrowers),
      protocols: fields.protocols ?? null,
      healthFactorThreshold: threshold,
      sealedSecret: 'sealed elsewhere',
      now: 1,
    })
    if (fields.status === 'disabled')
      await db.updateTable('webhooks').set({ status: 'disabled' }).where('id', '=', id).execute()
  }

  async function setCursor(database: Database, ledger: number) {
    await database.db.deleteFrom('indexer_state').where('name', '=', HEALTH_CURSOR).execute()
    await database.db
      .insertInto('indexer_state')
      .values({ name: HEALTH_CURSOR, last_ledger: ledger, first_ledger: ledger, updated_at: 1 })
      .execute()
  }

  const cursorOf = async (database: Database) =>
    Number(
      (
        await database.db
          .selectFrom('indexer_state')
          .select('last_ledger')
          .where('name', '=', HEALTH_CURSOR)
          .executeTakeFirst()
      )?.last_ledger ?? Number.NaN,
    )

  /** The health messages of the store, as the test compares them, checking each payload on the way. */
  async function messages(database: Database): Promise<Expected[]> {
    const rows = await database.db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('type', '=', HEALTH_FACTOR_BELOW)
      .orderBy('seq')
      .execute()
    return rows.map((row) => {
      expect(row.status).not.toBe('failed')
      expect(row.payload).not.toBeNull()
      const body = JSON.parse(row.payload!)
      expect(Value.Check(HealthFactorCrossingEvent, body)).toBe(true)
      expect(body).toMatchObject({
        type: HEALTH_FACTOR_BELOW,
        address: row.address,
        protocol: 'lendingprotocol',
        ledger: Number(row.ledger),
        closed_at: new Date(closeTimes.get(Number(row.ledger))! * 1000).toISOString(),
      })
      return {
        webhook: row.webhook_id,
        ledger: body.ledger,
        address: body.address,
        pool: body.pool,
        direction: body.direction,
        health_factor: body.health_factor,
        previous_health_factor: body.previous_health_factor,
      }
    })
  }

  /** The evaluator's dependencies on one Database object (another object: another process). */
  function evaluatorOn(database: Database): HealthCrossingsDeps {
    const reader = createPositionsReader(database)
    return {
      database,
      reader,
      deps: async () => ({
        reader,
        network: await w.t.ctx.caches.network.get(),
        maxPriceAgeS: w.t.ctx.config.maxPriceAgeS,
        nowS: Math.floor(Date.now() / 1000),
      }),
      logger: createLogger('silent'),
      clock: { now: () => Date.now() },
      idleMs: 1000,
    }
  }

  it('the devnet has borrowers whose health factor moves', () => {
    expect(borrowers.length).toBeGreaterThanOrEqual(2)
    const threshold = busiestThreshold(borrowers)
    const crossings = expected('x', borrowers, threshold)
    expect(crossings.length).toBeGreaterThanOrEqual(2)
    expect(new Set(crossings.map((c) => c.direction))).toEqual(new Set(['below', 'above']))
  })

  it("the app's evaluator judges every committed range after it is woken, and the renderer leaves the bodies to it", async () => {
    const { database } = w.t
    const threshold = busiestThreshold(borrowers)
    await database.db.transaction().execute(async (trx) => {
      await addWebhook(trx, 'wh_wired', threshold)
      await trx
        .insertInto('indexer_state')
        .values({ name: HEALTH_CURSOR, last_ledger: START, first_ledger: START, updated_at: 1 })
        .execute()
    })
    // On PostgreSQL a NOTIFY on the outbox's channel wakes it; on SQLite its idle pass (1 s).
    if (database.kind === 'postgres') await sql`SELECT pg_notify('strata_webhooks', '')`.execute(database.db)
    const deadline = Date.now() + 30_000
    while ((await cursorOf(database)) !== last && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50))
    expect(await cursorOf(database)).toBe(last)
    expect(await messages(database)).toEqual(expected('wh_wired', borrowers, threshold))

    const render = createPayloadRenderer({
      database,
      reader: w.t.ctx.reader,
      answers: PASS_THROUGH,
      deps: evaluatorOn(database).deps,
    })
    const row = await database.db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('type', '=', HEALTH_FACTOR_BELOW)
      .executeTakeFirstOrThrow()
    expect(await render(row)).toBeNull()
  }, 60_000)

  it('writes each crossing once, as the /at answers show it, whichever process judges each range', async () => {
    // The app's own evaluator and dispatcher stop: from here, two evaluators on two Database objects.
    await w.t.app.close()
    const one = w.t.database
    const two = w.t.testDb.open()
    try {
      await one.db.updateTable('webhooks').set({ status: 'disabled' }).where('id', '=', 'wh_wired').execute()
      await one.db.deleteFrom('webhook_messages').execute()
      const explicit = busiestThreshold(borrowers)
      const everyone = busiestThreshold(accounts, [explicit])
      await addWebhook(one.db, 'wh_some', explicit)
      await addWebhook(one.db, 'wh_all', everyone, { addresses: null })
      await addWebhook(one.db, 'wh_never', '0.5')
      await addWebhook(one.db, 'wh_amm_only', explicit, { protocols: ['ammprotocol'] })
      await addWebhook(one.db, 'wh_off', explicit, { status: 'disabled' })
      const from = START + 20
      await setCursor(one, from)

      const want = [
        ...expected('wh_some', borrowers, explicit, from),
        ...expected('wh_all', accounts, everyone, from),
      ].sort(order)
      expect(want.filter((m) => m.webhook === 'wh_all').length).toBeGreaterThan(0)
      // A threshold no answer falls under: nothing to write.
      expect(expected('wh_never', borrowers, '0.5', from)).toEqual([])

      const a = evaluatorOn(one)
      const b = evaluatorOn(two)
      // Each keeps its accounts' last judgements between ranges, as a serving process does.
      const answerA = createAnswerer()
      const answerB = createAnswerer()
      let written = 0
      const ranges: Array<[number, number]> = []
      for (let round = 0; round < 20; round++) {
        const judged = await Promise.all([judgeNextRange(a, answerA), judgeNextRange(b, answerB)])
        if (judged.every((j) => j === null)) break
        for (const j of judged) {
          if (j === null) continue
          written += j.written
          ranges.push([j.from, j.to])
        }
      }
      // Consecutive ranges of at most RANGE ledgers, from the cursor to the checkpoint, each judged once.
      ranges.sort((x, y) => x[0] - y[0])
      expect(ranges[0]![0]).toBe(from)
      expect(ranges.at(-1)![1]).toBe(last)
      for (const [i, [lo, hi]] of ranges.entries()) {
        expect(hi - lo).toBeLessThanOrEqual(RANGE)
        if (i > 0) expect(lo).toBe(ranges[i - 1]![1])
      }
      const got = await messages(one)
      expect(got).toEqual(want)
      expect(written).toBe(want.length)
      expect(new Set(got.map((m) => m.direction))).toEqual(new Set(['below', 'above']))
      // Thresholds as the payload states them: 7 decimals.
      const payloads = await one.db.selectFrom('webhook_messages').select(['webhook_id', 'payload']).execute()
      for (const p of payloads) {
        const threshold = JSON.parse(p.payload!).threshold as string
        expect(threshold).toMatch(/^[0-9]+\.[0-9]{7}$/)
        expect(units(threshold)).toBe(units(p.webhook_id === 'wh_all' ? everyone : explicit))
      }

      // Judged already: another pass of either writes nothing more.
      expect(await judgeNextRange(a)).toBeNull()
      expect(await judgeNextRange(b)).toBeNull()
      expect(await messages(two)).toEqual(want)
      expect(await cursorOf(one)).toBe(last)
    } finally {
      await two.close()
    }
  }, 120_000)

  it('starts at the checkpoint at first, and only follows it while nobody subscribes or when it went past it', async () => {
    const database = w.t.database
    const before = (await messages(database)).length
    await database.db.deleteFrom('indexer_state').where('name', '=', HEALTH_CURSOR).execute()
    const deps = evaluatorOn(database)
    // No cursor: one is made at the checkpoint, and nothing of the history is judged.
    expect(await judgeNextRange(deps)).toBeNull()
    expect(await cursorOf(database)).toBe(last)
    expect(await judgeNextRange(deps)).toBeNull()
    // A store indexed again below the cursor: the cursor comes back to the checkpoint, judging nothing.
    await setCursor(database, last + 50)
    expect(await judgeNextRange(deps)).toEqual({ from: last + 50, to: last, written: 0 })
    expect(await cursorOf(database)).toBe(last)

    // Without an enabled subscription to the event, the cursor follows the checkpoint, judging nothing.
    await database.db.updateTable('webhooks').set({ status: 'disabled' }).execute()
    await setCursor(database, START)
    expect(await judgeNextRange(deps)).toEqual({ from: START, to: last, written: 0 })
    expect(await cursorOf(database)).toBe(last)
    expect((await messages(database)).length).toBe(before)

    // Without a subscription and without a cursor, nothing is written at all.
    await database.db.deleteFrom('indexer_state').where('name', '=', HEALTH_CURSOR).execute()
    expect(await judgeNextRange(deps)).toBeNull()
    expect(Number.isNaN(await cursorOf(database))).toBe(true)
  })
})

describe('judging a health factor against a threshold', () => {
  const POOL = 'CDVQVKOY2YSXS2IC7KN6MNASSHPAO7UN2UR2ON4OI2SKMFJNVAMDX6DP'
  const ADDRESS = 'GAD3XHTNPWB5U4WQ42T5773PKGKTYZ3BF6JLKL7OPPMIB4J2WFXNF2TD'
  /** A lending answer's data with one group (none when `health` is undefined). */
  type Reason = LendingAnswerData['groups'][number]['usd_unavailable_reason']
  const answer = (
    health: string | null | undefined,
    reason: Reason = null,
    borrows = true,
  ): LendingAnswerData => ({
    positions: borrows ? [{ contract_address: POOL, position_type: 'borrow' }] : [],
    groups:
      health === undefined
        ? []
        : [{ contract_address: POOL, health_factor: health, usd_unavailable_reason: reason }],
  })
  const watcher = { id: 'wh', threshold: 11_000_000n, thresholdText: '1.1000000' }
  const run = (answers: LendingAnswerData[]) =>
    crossingsOf(
      watcher,
      ADDRESS,
      answers.map((a, i) => ({ ledger: 100 + i, closeTime: 1_735_689_600 + i * 5, pools: judgeGroups(a) })),
    ).map((m) => JSON.parse(m.payload))

  it('reads thresholds as integers of 1e-7, without floats', () => {
    expect(parseFixed7('1.1')).toBe(11_000_000n)
    expect(parseFixed7('1.0000001')).toBe(10_000_001n)
    expect(parseFixed7('123456789012.5')).toBe(1_234_567_890_125_000_000n)
    expect(parseFixed7('1.12345678')).toBeNull()
    expect(parseFixed7('-1')).toBeNull()
    expect(parseFixed7('1e3')).toBeNull()
  })

  it('emits each way once, counts no debt as above, and passes over an unknown value', () => {
    const got = run([
      answer('1.2000000'),
      answer('1.1000000'), // at the threshold: not below
      answer('1.0999999'), // below
      answer(null, 'price_stale'), // unknown: no event, the last known value stands
      answer('1.0500000'), // still below, compared with 1.0999999
      answer(undefined), // the debt is gone (no group): above
      answer('1.0000000'), // below again, from no debt
      answer(null, null, false), // a group without debt: above
    ])
    expect(got.map((m) => [m.ledger, m.direction, m.health_factor, m.previous_health_factor])).toEqual([
      [102, 'below', '1.0999999', '1.1000000'],
      [105, 'above', null, '1.0500000'],
      [106, 'below', '1.0000000', null],
      [107, 'above', null, '1.0000000'],
    ])
    expect(got[0]).toEqual({
      type: HEALTH_FACTOR_BELOW,
      address: ADDRESS,
      protocol: 'lendingprotocol',
      ledger: 102,
      closed_at: new Date((1_735_689_600 + 10) * 1000).toISOString(),
      pool: POOL,
      direction: 'below',
      threshold: '1.1000000',
      health_factor: '1.0999999',
      previous_health_factor: '1.1000000',
    })
    for (const m of got) expect(Value.Check(HealthFactorCrossingEvent, m)).toBe(true)
  })

  it('takes an unknown base as no crossing until a value is known', () => {
    expect(run([answer(null, 'price_missing'), answer('0.9000000'), answer('1.3000000')])).toMatchObject([
      { ledger: 102, direction: 'above', previous_health_factor: '0.9000000' },
    ])
  })
})
